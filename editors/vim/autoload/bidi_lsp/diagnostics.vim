" bidi-lsp: hazard diagnostics (textDocument/publishDiagnostics) in the
" location list and as signs.

let s:save_cpo = &cpoptions
set cpoptions&vim

" uri -> {version, diagnostics}: the last set the daemon published.
let s:published = {}
let s:types = {1: 'E', 2: 'W', 3: 'I', 4: 'N'}
let s:sign_names = {1: 'BidiLspError', 2: 'BidiLspWarning', 3: 'BidiLspInformation', 4: 'BidiLspHint'}
let s:title = 'bidi-lsp'

function! s:uri(bufnr) abort
  return get(bidi_lsp#buffer(a:bufnr), 'uri', bidi_lsp#uri(a:bufnr))
endfunction

function! s:define_signs() abort
  if !empty(sign_getdefined('BidiLspError'))
    return
  endif
  call sign_define('BidiLspError', {'text': 'E>', 'texthl': 'ErrorMsg'})
  call sign_define('BidiLspWarning', {'text': 'W>', 'texthl': 'WarningMsg'})
  call sign_define('BidiLspInformation', {'text': 'I>', 'texthl': 'Question'})
  call sign_define('BidiLspHint', {'text': 'H>', 'texthl': 'Comment'})
endfunction

" The daemon's last published diagnostics for {uri} (LSP Diagnostic dicts).
function! bidi_lsp#diagnostics#get(uri) abort
  return get(get(s:published, a:uri, {}), 'diagnostics', [])
endfunction

" The version of the document that the last publish for {uri} describes, or -1.
function! bidi_lsp#diagnostics#version(uri) abort
  return get(get(s:published, a:uri, {}), 'version', -1)
endfunction

" Handles a publishDiagnostics notification: stores the set (LSP replaces
" the whole set), then updates the signs and location lists.
function! bidi_lsp#diagnostics#publish(params) abort
  let s:published[a:params.uri] = {'version': get(a:params, 'version', -1),
        \ 'diagnostics': get(a:params, 'diagnostics', [])}
  let l:bufnr = bidi_lsp#bufnr_of(a:params.uri)
  if l:bufnr < 0
    return
  endif
  call s:update_signs(l:bufnr)
  if get(g:, 'bidi_lsp_loclist', 1)
    for l:winid in win_findbuf(l:bufnr)
      call bidi_lsp#diagnostics#fill_loclist(l:winid, 0)
    endfor
  endif
endfunction

" Location-list items for buffer {bufnr}, sorted by position.
function! bidi_lsp#diagnostics#items(bufnr) abort
  let l:items = []
  for l:diagnostic in bidi_lsp#diagnostics#get(s:uri(a:bufnr))
    let l:range = l:diagnostic.range
    call add(l:items, {'bufnr': a:bufnr,
          \ 'lnum': l:range.start.line + 1, 'col': l:range.start.character + 1,
          \ 'end_lnum': l:range.end.line + 1, 'end_col': l:range.end.character + 1,
          \ 'type': get(s:types, get(l:diagnostic, 'severity', 1), 'E'),
          \ 'text': l:diagnostic.message . ' [' . get(l:diagnostic, 'code', '') . ']'})
  endfor
  return sort(l:items, {a, b -> a.lnum != b.lnum ? a.lnum - b.lnum : a.col - b.col})
endfunction

" Puts the diagnostics of the window's buffer in its location list. The
" list titled 'bidi-lsp' is replaced when it is the current one; otherwise a
" new list is added, but only when {force} or there is something to show.
function! bidi_lsp#diagnostics#fill_loclist(winid, force) abort
  let l:items = bidi_lsp#diagnostics#items(winbufnr(a:winid))
  let l:current = getloclist(a:winid, {'title': 0, 'size': 0})
  if get(l:current, 'title', '') ==# s:title
    call setloclist(a:winid, [], 'r', {'title': s:title, 'items': l:items})
  elseif a:force || !empty(l:items)
    call setloclist(a:winid, [], ' ', {'title': s:title, 'items': l:items})
  endif
endfunction

function! s:update_signs(bufnr) abort
  if !get(g:, 'bidi_lsp_signs', 1) || !has('signs')
    return
  endif
  call s:define_signs()
  call sign_unplace('bidi_lsp', {'buffer': a:bufnr})
  let l:signs = []
  for l:diagnostic in bidi_lsp#diagnostics#get(s:uri(a:bufnr))
    call add(l:signs, {'buffer': a:bufnr, 'group': 'bidi_lsp', 'priority': 12,
          \ 'lnum': l:diagnostic.range.start.line + 1,
          \ 'name': get(s:sign_names, get(l:diagnostic, 'severity', 1), 'BidiLspError')})
  endfor
  call sign_placelist(l:signs)
endfunction

" Forgets the diagnostics of {uri} and removes its signs.
function! bidi_lsp#diagnostics#clear(uri) abort
  if has_key(s:published, a:uri)
    call remove(s:published, a:uri)
  endif
  let l:bufnr = bidi_lsp#bufnr_of(a:uri)
  if l:bufnr < 0
    " Detached already: find the buffer by its URI.
    for l:info in getbufinfo()
      if bidi_lsp#uri(l:info.bufnr) ==# a:uri
        let l:bufnr = l:info.bufnr
      endif
    endfor
  endif
  if l:bufnr > 0 && has('signs')
    call sign_unplace('bidi_lsp', {'buffer': l:bufnr})
  endif
endfunction

function! bidi_lsp#diagnostics#clear_all() abort
  for l:uri in keys(s:published)
    call bidi_lsp#diagnostics#clear(l:uri)
  endfor
  if has('signs')
    call sign_unplace('bidi_lsp')
  endif
endfunction

let &cpoptions = s:save_cpo
unlet s:save_cpo
