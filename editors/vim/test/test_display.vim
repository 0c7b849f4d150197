" Regression tests: what Vim displays (issue 12): hint names, the visual
" window, auto direction. Vim runs with a screen; screenstring() reads it.

" In a 'rightleft' window Vim draws virtual text right to left: the hint
" used to read >MLR< on screen.
function! Test_hint_names_read_right_in_rightleft_windows() abort
  if !bidi_lsp#hints#supported()
    call Skip('this Vim cannot show virtual text')
  endif
  let l:bufnr = Open(['שלום' . g:RLM . ' עולם'])
  call bidi_lsp#hints#refresh(l:bufnr, 1, 1)
  " Vim triggers no OptionSet during startup, where these tests run.
  set rightleft
  doautocmd <nomodeline> OptionSet rightleft
  redraw!
  call assert_match('<RLM>', ScreenRow(1))
  call assert_notmatch('>MLR<', ScreenRow(1))
  set norightleft
  doautocmd <nomodeline> OptionSet rightleft
  redraw!
  call assert_match('<RLM>', ScreenRow(1))
  call assert_notmatch('>MLR<', ScreenRow(1))
  call assert_equal(['RLM'], map(bidi_lsp#hints#shown(l:bufnr), 'v:val.label'))
endfunction

" The screen row of the first line of window {winid}.
function! s:window_row(winid) abort
  return win_screenpos(a:winid)[0]
endfunction

" Vim's Arabic shaping re-shaped the reversed text of the visual window
" (joining letters that are not neighbours: a false lam-alef ligature), and
" right-to-left lines were left-aligned there.
function! Test_visual_window_is_not_shaped_and_right_aligned() abort
  let l:bufnr = Open(['السلام عليكم', 'hello world'])
  set arabicshape
  " Without the daemon's shaping, to see Vim's.
  let g:bidi_lsp_visual_shape = 0
  1,2BidiVisual
  let l:winid = bufwinid('bidi-lsp://visual')
  call assert_true(l:winid > 0)
  call assert_false(&arabicshape, "'arabicshape' is off while the window is open")
  let l:lines = getbufline(winbufnr(l:winid), 1, '$')
  let l:width = winwidth(l:winid) - 1
  call assert_equal(l:width, strdisplaywidth(l:lines[0]), 'the RTL line ends at the right edge')
  call assert_match('^ \+\S', l:lines[0])
  call assert_equal('hello world', l:lines[1], 'the LTR line stays at the left edge')
  redraw!
  let l:row = ScreenRow(s:window_row(l:winid))
  call assert_match('مالسلا', l:row)
  call assert_equal(-1, match(l:row, '[\ufb50-\ufdff\ufe70-\ufeff]'), 'no presentation forms: ' . l:row)
  execute win_id2win(l:winid) . 'close'
  call assert_true(&arabicshape, "'arabicshape' back as it was")
  let g:bidi_lsp_visual_shape = 1
endfunction

" By default the window shows Arabic letters joined by the daemon ("shape":
" true): "السلام عليكم" in visual order in the Arabic Presentation Forms, as
" fribidi --nopad --nobreak --clean prints it (meem final, kaf, yeh and lam
" medial, ain initial; meem isolated, lam-alef final, seen medial, lam
" initial, alef isolated).
function! Test_visual_window_joins_arabic_letters() abort
  let l:bufnr = Open(['السلام عليكم'])
  call Record()
  BidiVisual
  call assert_equal(v:true, Sent('bidi/visualOrder')[0].params.shape)
  let l:winid = bufwinid('bidi-lsp://visual')
  let l:shaped = list2str([0xFEE2, 0xFEDC, 0xFEF4, 0xFEE0, 0xFECB, 0x20, 0xFEE1, 0xFEFC, 0xFEB4, 0xFEDF, 0xFE8D])
  call assert_equal(l:shaped, trim(getbufline(winbufnr(l:winid), 1)[0]))
  redraw!
  call assert_match(l:shaped, ScreenRow(s:window_row(l:winid)))
  execute win_id2win(l:winid) . 'close'
  let g:bidi_lsp_visual_shape = 0
  call Record()
  BidiVisual
  call assert_equal(v:false, Sent('bidi/visualOrder')[0].params.shape)
  let l:winid = bufwinid('bidi-lsp://visual')
  call assert_equal('مكيلع مالسلا', trim(getbufline(winbufnr(l:winid), 1)[0]))
  execute win_id2win(l:winid) . 'close'
  let g:bidi_lsp_visual_shape = 1
endfunction

" What the window shows is asked with the options of COORDINATION.md.
function! Test_visual_window_asks_marks_after_base_without_controls() abort
  let l:bufnr = Open(['שָׁלוֹם ' . g:LRI . 'x' . g:PDI])
  call Record()
  BidiVisual
  let l:sent = Sent('bidi/visualOrder')
  call assert_equal(1, len(l:sent))
  call assert_equal('afterBase', get(l:sent[0].params, 'combiningMarks', ''))
  call assert_equal('strip', get(l:sent[0].params, 'controls', ''))
endfunction

" The window shows each combining mark after its letter and no control.
function! Test_visual_window_shows_marks_after_their_letter() abort
  let l:word = 'שָׁלוֹם'
  let l:bufnr = Open([l:word . ' ' . g:LRI . 'x' . g:PDI])
  let l:text = bidi_lsp#visual_lines(l:bufnr, 1, 1)[0]
  " Reversed character by character, marks land before their letter;
  " reversed letter by letter (split() keeps a letter's marks with it),
  " after it.
  let l:resolved = list2str(reverse(str2list(l:word)))
  let l:after_base = join(reverse(split(l:word, '\zs')), '')
  call assert_equal(-1, stridx(l:text, l:resolved), 'a mark before its letter: ' . l:text)
  call assert_notequal(-1, stridx(l:text, l:after_base), l:text)
  call assert_equal(-1, stridx(l:text, g:LRI), 'no LRI')
  call assert_equal(-1, stridx(l:text, g:PDI), 'no PDI')
endfunction

" Auto direction used to set 'rightleft' from the majority of the lines, and
" 'rightleft' mirrors every Latin word and number (seton gniteeM).
function! Test_auto_direction_never_mirrors_mixed_notes() abort
  let g:bidi_lsp_auto_direction = 1
  let l:bufnr = Open(['פגישה עם דני', 'Meeting notes', 'שלום עולם', 'עוד שורה', 'מחר 10:30'])
  call WaitForView(l:bufnr)
  call assert_false(&rightleft, 'mixed lines: norightleft')
  redraw!
  call assert_match('Meeting notes', ScreenRow(2))
  " A window showing only right-to-left text gets 'rightleft'.
  call setline(1, ['פגישה עם דני', 'שלום עולם', '', 'עוד שורה'])
  5,$delete
  doautocmd <nomodeline> TextChanged
  call WaitForView(l:bufnr)
  call assert_true(&rightleft, 'only RTL lines: rightleft')
  " A number in an RTL line would be mirrored too.
  call setline(2, 'שלום 2024')
  doautocmd <nomodeline> TextChanged
  call WaitForView(l:bufnr)
  call assert_false(&rightleft, 'a number: norightleft')
endfunction
