" bidi-lsp: the visual-order window (:BidiVisual). It shows lines as they
" display, left to right, for terminals that do not reorder: combining marks
" after their base (UAX #9 L3, "combiningMarks": "afterBase"), no bidi
" controls ("controls": "strip"), right-to-left paragraphs right-aligned, and
" Vim's Arabic shaping off while it is open ('arabicshape' is global, and
" shaping text already in visual order joins the wrong neighbours). Nothing in
" Vim then joins Arabic letters there, so the daemon does ("shape": true, the
" presentation forms) unless g:bidi_lsp_visual_shape is 0.

let s:save_cpo = &cpoptions
set cpoptions&vim

let s:name = 'bidi-lsp://visual'
" 'arabicshape' as it was before the window opened, or -1.
let s:saved_arabicshape = -1

" The options of the bidi/visualOrder request for what the window shows.
function! bidi_lsp#visual#options() abort
  return {'include': ['visualText'], 'combiningMarks': 'afterBase', 'controls': 'strip',
        \ 'shape': get(g:, 'bidi_lsp_visual_shape', 1) ? v:true : v:false}
endfunction

" The visual order of lines first .. last: [{text, direction}], one per
" paragraph.
function! bidi_lsp#visual#paragraphs(bufnr, first, last) abort
  let l:params = extend(bidi_lsp#line_params(a:bufnr, a:first, a:last), bidi_lsp#visual#options())
  let l:result = []
  for l:paragraph in bidi_lsp#request('bidi/visualOrder', l:params).paragraphs
    call add(l:result, {'text': join(map(copy(l:paragraph.lines), 'v:val.visualText'), ''),
          \ 'direction': l:paragraph.direction})
  endfor
  return l:result
endfunction

" The lines of the window, {width} columns wide: right-to-left paragraphs
" padded on the left to end at the right edge.
function! bidi_lsp#visual#layout(paragraphs, width) abort
  let l:lines = []
  for l:paragraph in a:paragraphs
    let l:pad = l:paragraph.direction ==# 'rtl' ? a:width - strdisplaywidth(l:paragraph.text) : 0
    call add(l:lines, repeat(' ', max([0, l:pad])) . l:paragraph.text)
  endfor
  return l:lines
endfunction

function! bidi_lsp#visual#show(bufnr, first, last) abort
  let l:paragraphs = bidi_lsp#visual#paragraphs(a:bufnr, a:first, a:last)
  let l:source = bufname(a:bufnr)
  let l:winid = bufwinid(s:name)
  if l:winid > 0
    call win_gotoid(l:winid)
  else
    execute 'silent botright ' . min([len(l:paragraphs) + 1, 12]) . 'new ' . s:name
    setlocal buftype=nofile bufhidden=wipe noswapfile nobuflisted norightleft nolist nospell
    setlocal nonumber norelativenumber nowrap foldcolumn=0 signcolumn=no
    augroup bidi_lsp_visual
      autocmd!
      autocmd BufWipeout <buffer> call bidi_lsp#visual#restore_shaping()
    augroup END
  endif
  if s:saved_arabicshape < 0
    let s:saved_arabicshape = &arabicshape
  endif
  set noarabicshape
  setlocal modifiable
  silent %delete _
  call setline(1, bidi_lsp#visual#layout(l:paragraphs, winwidth(0) - 1))
  setlocal nomodifiable
  let w:bidi_lsp_source = l:source
  wincmd p
endfunction

function! bidi_lsp#visual#restore_shaping() abort
  if s:saved_arabicshape >= 0
    let &arabicshape = s:saved_arabicshape
    let s:saved_arabicshape = -1
  endif
endfunction

let &cpoptions = s:save_cpo
unlet s:save_cpo
