" bidi-lsp: invisible bidi controls shown by name (textDocument/inlayHint)
" as virtual text before each control, e.g. <RLM>.

let s:save_cpo = &cpoptions
set cpoptions&vim

let s:type = 'bidi_lsp_hint'

" Whether this Vim can show virtual text (Vim 9.0.0067 and later).
function! bidi_lsp#hints#supported() abort
  return has('textprop') && has('patch-9.0.0067')
endfunction

function! s:enabled(bufnr) abort
  return bidi_lsp#hints#supported() && get(g:, 'bidi_lsp_inlay_hints', 1)
        \ && getbufvar(a:bufnr, 'bidi_lsp_hints', 1)
endfunction

function! s:define_type() abort
  if empty(prop_type_get(s:type))
    call prop_type_add(s:type, {'highlight': 'NonText'})
  endif
endfunction

" Asks the daemon for the hints of the whole buffer and shows them; with
" {async}, the answer is applied when it arrives (dropped if the buffer
" changed meanwhile). Returns the hints when synchronous.
function! bidi_lsp#hints#refresh(bufnr, async) abort
  if !s:enabled(a:bufnr) || empty(bidi_lsp#buffer(a:bufnr))
    return []
  endif
  let l:state = bidi_lsp#ensure(a:bufnr)
  let l:params = {'textDocument': {'uri': l:state.uri},
        \ 'range': bidi_lsp#edit#lines_range(1, len(getbufline(a:bufnr, 1, '$')))}
  if a:async
    call bidi_lsp#request_async('textDocument/inlayHint', l:params,
          \ function('s:show', [a:bufnr, l:state.version]))
    return []
  endif
  let l:hints = bidi_lsp#request('textDocument/inlayHint', l:params)
  call s:show(a:bufnr, l:state.version, l:hints)
  return l:hints
endfunction

function! s:show(bufnr, version, hints) abort
  let l:state = bidi_lsp#buffer(a:bufnr)
  if empty(l:state) || l:state.version != a:version || type(a:hints) != v:t_list
    return
  endif
  call s:define_type()
  call bidi_lsp#hints#clear(a:bufnr)
  let l:shown = []
  for l:hint in a:hints
    let l:label = type(l:hint.label) == v:t_string ? l:hint.label
          \ : join(map(copy(l:hint.label), 'v:val.value'), '')
    call prop_add(l:hint.position.line + 1, l:hint.position.character + 1,
          \ {'type': s:type, 'bufnr': a:bufnr, 'text': '<' . l:label . '>'})
    call add(l:shown, {'lnum': l:hint.position.line + 1, 'col': l:hint.position.character + 1,
          \ 'text': '<' . l:label . '>'})
  endfor
  call setbufvar(a:bufnr, 'bidi_lsp_hints_shown', l:shown)
endfunction

" The hints shown in buffer {bufnr}: [{lnum, col, text}].
function! bidi_lsp#hints#shown(bufnr) abort
  if !bidi_lsp#hints#supported() || empty(prop_type_get(s:type))
    return []
  endif
  " prop_list() does not give the text of virtual text in Vim 9.0: pair
  " the properties with the labels recorded when they were added.
  let l:labels = getbufvar(a:bufnr, 'bidi_lsp_hints_shown', [])
  let l:shown = []
  for l:prop in prop_list(1, {'bufnr': a:bufnr, 'end_lnum': -1, 'types': [s:type]})
    let l:label = get(filter(copy(l:labels), 'v:val.lnum == l:prop.lnum && v:val.col == l:prop.col'), 0, {})
    call add(l:shown, {'lnum': l:prop.lnum, 'col': l:prop.col, 'text': get(l:label, 'text', '')})
  endfor
  return l:shown
endfunction

function! bidi_lsp#hints#clear(bufnr) abort
  if bidi_lsp#hints#supported() && !empty(prop_type_get(s:type)) && bufloaded(a:bufnr)
    call prop_remove({'type': s:type, 'bufnr': a:bufnr, 'all': 1})
    call setbufvar(a:bufnr, 'bidi_lsp_hints_shown', [])
  endif
endfunction

" :BidiHints: turns the hints of a buffer off or on.
function! bidi_lsp#hints#toggle(bufnr) abort
  if !bidi_lsp#hints#supported()
    echo 'bidi-lsp: this Vim cannot show virtual text'
    return
  endif
  let l:on = !getbufvar(a:bufnr, 'bidi_lsp_hints', 1)
  call setbufvar(a:bufnr, 'bidi_lsp_hints', l:on)
  if l:on
    try
      call bidi_lsp#hints#refresh(a:bufnr, 0)
    catch /^bidi-lsp:/
      echohl ErrorMsg | echomsg v:exception | echohl None
    endtry
  else
    call bidi_lsp#hints#clear(a:bufnr)
  endif
endfunction

let &cpoptions = s:save_cpo
unlet s:save_cpo
