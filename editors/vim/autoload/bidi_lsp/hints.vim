" bidi-lsp: invisible bidi controls shown by name (textDocument/inlayHint)
" as virtual text before each control, e.g. <RLM>, for the visible lines
" (see view.vim). Vim draws virtual text right to left in a 'rightleft'
" window, so there the label is added reversed, to read <RLM> on screen.

let s:save_cpo = &cpoptions
set cpoptions&vim

let s:type = 'bidi_lsp_hint'

" Whether this Vim can show virtual text (Vim 9.0.0067 and later).
function! bidi_lsp#hints#supported() abort
  return has('textprop') && has('patch-9.0.0067')
endfunction

function! bidi_lsp#hints#enabled(bufnr) abort
  return bidi_lsp#hints#supported() && get(g:, 'bidi_lsp_inlay_hints', 1)
        \ && getbufvar(a:bufnr, 'bidi_lsp_hints', 1)
endfunction

function! s:define_type() abort
  if empty(prop_type_get(s:type))
    call prop_type_add(s:type, {'highlight': 'NonText'})
  endif
endfunction

" Whether buffer {bufnr} is shown right to left: in the current window if
" it shows it, else in the first window that does.
function! s:rightleft(bufnr) abort
  let l:winid = bufnr('%') == a:bufnr ? win_getid() : get(win_findbuf(a:bufnr), 0, 0)
  return l:winid > 0 && getwinvar(l:winid, '&rightleft')
endfunction

" The text to add for {label} in buffer {bufnr}.
function! s:screen_text(bufnr, label) abort
  let l:text = '<' . a:label . '>'
  return s:rightleft(a:bufnr) ? join(reverse(split(l:text, '\zs')), '') : l:text
endfunction

" Asks the daemon for the hints of lines {first} .. {last} and shows them
" (synchronously). Returns the hints.
function! bidi_lsp#hints#refresh(bufnr, first, last) abort
  if !bidi_lsp#hints#enabled(a:bufnr)
    return []
  endif
  let l:state = bidi_lsp#ensure(a:bufnr)
  let l:hints = bidi_lsp#request('textDocument/inlayHint', {'textDocument': {'uri': l:state.uri},
        \ 'range': bidi_lsp#edit#lines_range(a:first, a:last)})
  call bidi_lsp#hints#show(a:bufnr, [a:first, a:last], l:hints)
  return l:hints
endfunction

" Replaces the hints shown on the lines of {span} ([first, last]) by {hints}.
function! bidi_lsp#hints#show(bufnr, span, hints) abort
  if type(a:hints) != v:t_list || !bufloaded(a:bufnr)
    return
  endif
  call s:define_type()
  let [l:first, l:last] = [a:span[0], min([a:span[1], bidi_lsp#line_count(a:bufnr)])]
  if l:last >= l:first
    call prop_remove({'type': s:type, 'bufnr': a:bufnr, 'all': 1}, l:first, l:last)
  endif
  let l:shown = filter(copy(getbufvar(a:bufnr, 'bidi_lsp_hints_shown', [])),
        \ 'v:val.lnum < l:first || v:val.lnum > l:last')
  for l:hint in a:hints
    let l:label = type(l:hint.label) == v:t_string ? l:hint.label
          \ : join(map(copy(l:hint.label), 'v:val.value'), '')
    let l:item = {'lnum': l:hint.position.line + 1, 'col': l:hint.position.character + 1,
          \ 'label': l:label, 'text': s:screen_text(a:bufnr, l:label)}
    call prop_add(l:item.lnum, l:item.col, {'type': s:type, 'bufnr': a:bufnr, 'text': l:item.text})
    call add(l:shown, l:item)
  endfor
  call setbufvar(a:bufnr, 'bidi_lsp_hints_shown', l:shown)
endfunction

" Adds the shown hints again, oriented for the window's 'rightleft'.
function! bidi_lsp#hints#orient(bufnr) abort
  if !bidi_lsp#hints#supported() || empty(prop_type_get(s:type)) || !bufloaded(a:bufnr)
    return
  endif
  let l:shown = bidi_lsp#hints#shown(a:bufnr)
  call prop_remove({'type': s:type, 'bufnr': a:bufnr, 'all': 1})
  let l:items = []
  for l:item in l:shown
    let l:item.text = s:screen_text(a:bufnr, l:item.label)
    call prop_add(l:item.lnum, l:item.col, {'type': s:type, 'bufnr': a:bufnr, 'text': l:item.text})
    call add(l:items, l:item)
  endfor
  call setbufvar(a:bufnr, 'bidi_lsp_hints_shown', l:items)
endfunction

" The hints shown in buffer {bufnr}: [{lnum, col, label, text}], in order.
function! bidi_lsp#hints#shown(bufnr) abort
  if !bidi_lsp#hints#supported() || empty(prop_type_get(s:type))
    return []
  endif
  " prop_list() does not give the text of virtual text in Vim 9.0: pair
  " the properties (which move with edits) with the labels recorded in order.
  let l:labels = {}
  for l:item in getbufvar(a:bufnr, 'bidi_lsp_hints_shown', [])
    let l:key = l:item.lnum . ':' . l:item.col
    let l:labels[l:key] = add(get(l:labels, l:key, []), l:item)
  endfor
  let l:shown = []
  for l:prop in prop_list(1, {'bufnr': a:bufnr, 'end_lnum': -1, 'types': [s:type]})
    let l:key = l:prop.lnum . ':' . l:prop.col
    let l:list = get(l:labels, l:key, [])
    let l:item = empty(l:list) ? {'label': '', 'text': ''} : remove(l:list, 0)
    call add(l:shown, {'lnum': l:prop.lnum, 'col': l:prop.col, 'label': l:item.label, 'text': l:item.text})
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
      call bidi_lsp#ensure(a:bufnr)
      call bidi_lsp#view#refresh(a:bufnr)
    catch /^bidi-lsp:/
      echohl ErrorMsg | echomsg v:exception | echohl None
    endtry
  else
    call bidi_lsp#hints#clear(a:bufnr)
  endif
endfunction

let &cpoptions = s:save_cpo
unlet s:save_cpo
