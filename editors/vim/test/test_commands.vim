" Regression tests: the commands on a region, their messages, quick fixes,
" and localization files (issues 12 and 9).

" A characterwise selection is the region: stripping it leaves the rest of
" its lines alone; a blockwise one is one region per line.
function! Test_mark_commands_respect_the_selection() abort
  let l:line = g:RLM . 'abc ' . g:RLM . 'def ' . g:RLM . 'ghi'
  call Open([l:line, l:line, l:line])
  " Select "def" with its mark on line 1 (characterwise), as typed.
  call feedkeys("1G0fdhv3l:BidiStrip!\<CR>", 'xt')
  call assert_equal(g:RLM . 'abc def ' . g:RLM . 'ghi', getline(1))
  call assert_equal([l:line, l:line], getline(2, 3), 'other lines untouched')
  " A block over lines 2-3, columns of "abc ", keeps "def" and "ghi" marks.
  call feedkeys("2G0\<C-v>jf :BidiStrip!\<CR>", 'xt')
  call assert_equal(['abc ' . g:RLM . 'def ' . g:RLM . 'ghi', 'abc ' . g:RLM . 'def ' . g:RLM . 'ghi'],
        \ getline(2, 3))
  " Whole lines from a range, even the lines of the last selection.
  call feedkeys(":2,3BidiStrip!\<CR>", 'xt')
  call assert_equal(['abc def ghi', 'abc def ghi'], getline(2, 3))
  call AssertInSync(bufnr('%'))
endfunction

" A blockwise selection isolates the block of each line within the line.
function! Test_isolate_a_block() abort
  call Open(['قال user: مرحبا', 'قال root: مرحبا'])
  execute "normal! 1G0fu\<C-v>jf:\<Esc>"
  '<,'>BidiInsertMarks isolate
  call assert_equal(['قال ' . g:FSI . 'user:' . g:PDI . ' مرحبا', 'قال ' . g:FSI . 'root:' . g:PDI . ' مرحبا'],
        \ getline(1, 2))
endfunction

" A command that changes nothing used to say "0 edits".
function! Test_nothing_to_change_is_said() abort
  call Open(['plain text', 'שלום'])
  call assert_match('strip: nothing to change', execute('BidiStrip'))
  call assert_match('direction: nothing to change', execute('2BidiInsertMarks direction rtl'))
  call assert_match('direction: 1 edit', execute('1BidiInsertMarks direction rtl'))
  call assert_match('nothing to fix here', execute('BidiFix'))
endfunction

" :BidiFix fixed one hazard of the line, and the same fix was listed once
" per diagnostic of a control (an RLO is both unpaired and an override).
function! Test_fix_every_hazard_on_the_line_without_duplicates() abort
  let l:text = 'a ' . g:RLO . 'b ' . g:LRI . 'c d'
  let l:bufnr = Open([l:text, 'x'])
  let l:uri = bidi_lsp#buffer(l:bufnr).uri
  call WaitFor({-> len(bidi_lsp#diagnostics#get(l:uri)) >= 3}, 'the diagnostics')
  let l:fixes = bidi_lsp#commands#quick_fixes(l:bufnr, bidi_lsp#edit#lines_range(1, 1))
  let l:edits = map(copy(l:fixes), 'v:val.edit')
  call assert_equal(len(l:edits), len(uniq(sort(map(copy(l:edits), 'string(v:val)')))), 'no duplicate fix')
  let l:titles = map(copy(l:fixes), 'v:val.title')
  call assert_true(len(filter(copy(l:titles), 'v:val =~# "RLO"')) >= 2, string(l:titles))
  call assert_true(len(filter(copy(l:titles), 'v:val =~# "LRI"')) >= 1, string(l:titles))
  " The cursor anywhere on the line: both hazards fixed at once.
  normal! 1G$
  BidiFix
  call bidi_lsp#flush(l:bufnr)
  let l:version = bidi_lsp#buffer(l:bufnr).version
  call WaitFor({-> bidi_lsp#diagnostics#version(l:uri) == l:version}, 'a publish after the fix')
  call assert_equal([], filter(copy(bidi_lsp#diagnostics#get(l:uri)), 'v:val.code !=# "bidi.override"'),
        \ 'no unpaired control left: ' . getline(1))
  call assert_equal('x', getline(2))
endfunction

" Vim 9.0 has no filetype for these localization formats.
function! Test_localization_files_are_detected() abort
  let l:dir = tempname()
  call mkdir(l:dir . '/ar.lproj', 'p')
  let l:cases = {'ar.lproj/Localizable.strings': 'strings', 'ar.lproj/Localizable.stringsdict': 'stringsdict',
        \ 'Localizable.xcstrings': 'xcstrings', 'intl_ar.arb': 'arb', 'ar.po': 'po',
        \ 'messages_ar.properties': 'jproperties'}
  let g:bidi_lsp_filetypes = values(l:cases)
  call Record()
  for [l:name, l:filetype] in items(l:cases)
    execute 'edit ' . fnameescape(l:dir . '/' . l:name)
    call assert_equal(l:filetype, &filetype, l:name)
    call WaitFor({-> !empty(bidi_lsp#buffer(bufnr('%')))}, l:name . ' attached')
    call assert_true(bidi_lsp#is_localization(bufnr('%')), l:name . ' is a localization file')
  endfor
  let l:ids = sort(map(Sent('textDocument/didOpen'), 'v:val.params.textDocument.languageId'))
  call assert_equal(sort(values(l:cases)), l:ids)
endfunction

" In a localization file, mark commands and quick fixes send the cursor's
" range (or the selection's), and the daemon takes the values it touches.
function! Test_localization_commands_send_the_cursor_or_selection() abort
  execute 'edit ' . fnameescape(tempname() . '/ar.lproj/Localizable.strings')
  call setline(1, ['"payment" = "%@ مدفوعات بدون فوائد من %@";', '"k" = "' . g:RLO . 'x";'])
  call bidi_lsp#attach(bufnr('%'))
  call Record()
  normal! 1G0f%l
  BidiInsertMarks placeholders
  let l:range = Sent('bidi/insertMarks')[-1].params.range
  call assert_equal({'start': {'line': 0, 'character': 14}, 'end': {'line': 0, 'character': 14}}, l:range)
  execute "normal! 1G0fmve\<Esc>"
  '<,'>BidiInsertMarks direction rtl
  let l:range = Sent('bidi/insertMarks')[-1].params.range
  call assert_equal(0, l:range.start.line)
  call assert_notequal(0, l:range.start.character, 'the selection, not the whole line')
  normal! 2G0fx
  BidiFix
  let l:range = Sent('textDocument/codeAction')[-1].params.range
  call assert_equal({'start': {'line': 1, 'character': 10}, 'end': {'line': 1, 'character': 10}}, l:range)
endfunction

" Subtitles and Markdown (contract §8): .vtt gets a filetype (Vim 9.0 has
" none), the languageIds are those the daemon knows, and commands send the
" cursor: the daemon takes the cue line or block under it.
function! Test_documents_are_detected_and_commands_send_the_cursor() abort
  let l:dir = tempname()
  call mkdir(l:dir, 'p')
  let l:cases = {'movie.ar.srt': ['srt', 'srt'], 'movie.he.vtt': ['webvtt', 'vtt'],
        \ 'README.fa.md': ['markdown', 'markdown']}
  let g:bidi_lsp_filetypes = ['srt', 'webvtt', 'markdown']
  call Record()
  for [l:name, l:types] in items(l:cases)
    execute 'edit ' . fnameescape(l:dir . '/' . l:name)
    call assert_equal(l:types[0], &filetype, l:name)
    call WaitFor({-> !empty(bidi_lsp#buffer(bufnr('%')))}, l:name . ' attached')
    call assert_true(bidi_lsp#is_structured(bufnr('%')), l:name . ' is a structured document')
    call assert_false(bidi_lsp#is_localization(bufnr('%')), l:name . ' is no localization file')
  endfor
  let l:ids = sort(map(Sent('textDocument/didOpen'), 'v:val.params.textDocument.languageId'))
  call assert_equal(['markdown', 'srt', 'vtt'], l:ids)
  execute 'edit ' . fnameescape(l:dir . '/movie.ar.srt')
  call setline(1, ['1', '00:00:01,000 --> 00:00:02,000', '<i>مرحبا!</i>', ''])
  normal! 3G0fح
  BidiInsertMarks direction rtl
  let l:range = Sent('bidi/insertMarks')[-1].params.range
  call assert_equal(l:range.start, l:range.end, 'the cursor, not the whole line')
  call assert_equal(2, l:range.start.line)
  call assert_notequal(0, l:range.start.character)
  BidiFix
  let l:range = Sent('textDocument/codeAction')[-1].params.range
  call assert_equal(l:range.start, l:range.end)
endfunction
