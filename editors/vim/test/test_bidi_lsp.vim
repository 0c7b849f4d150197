" Tests of the Vim plugin against the real daemon (run by test/run.vim).

let s:LRM = "\u200e"
let s:RLM = "\u200f"
let s:RLO = "\u202e"
let s:LRI = "\u2066"
let s:FSI = "\u2068"
let s:PDI = "\u2069"

function! Test_daemon_starts_with_utf8_positions() abort
  call Open(['hello'])
  call assert_true(bidi_lsp#running())
  call assert_match('running.*positions utf-8', execute('BidiStatus'))
endfunction

function! Test_natural_direction_of_lines() abort
  let l:bufnr = Open(['مرحبا بكم في bidi-lsp', 'Hello عالم', '12345'])
  let l:paragraphs = bidi_lsp#direction(l:bufnr, 1, 3)
  call assert_equal(['rtl', 'ltr', 'ltr'], map(copy(l:paragraphs), 'v:val.direction'))
  call assert_equal(['firstStrong', 'firstStrong', 'fallback'], map(copy(l:paragraphs), 'v:val.basis'))
  call assert_equal("line 1: rtl (firstStrong, first strong character at 1:1)", trim(execute('1BidiDirection')))
  call assert_match('line 3: ltr (fallback)', execute('3BidiDirection'))
  call assert_equal(3, len(split(execute('%BidiDirection'), "\n")))
endfunction

function! Test_document_sync_after_edits() abort
  let l:bufnr = Open(['first', 'שלום world', 'third'])
  call AssertInSync(l:bufnr)
  call setline(2, 'שלום עולם')
  call append(0, ['new first'])
  call append('$', ['last', 'لغة عربية'])
  call AssertInSync(l:bufnr)
  normal! 2Gdd
  $delete
  call AssertInSync(l:bufnr)
  execute "normal! ggOinserted \u05d0\<Esc>"
  call AssertInSync(l:bufnr)
  silent undo
  silent undo
  call AssertInSync(l:bufnr)
  %delete
  call AssertInSync(l:bufnr)
  call setline(1, ['a', 'b'])
  call AssertInSync(l:bufnr)
  " Several changes in one batch: join, change, delete the last line, append.
  call setline(1, ['one', 'two', 'three', 'four', 'five'])
  normal! 2GJ
  call setline(1, 'ONE')
  $delete
  call append(1, ['x', 'y'])
  call append('$', 'end')
  call AssertInSync(l:bufnr)
  call assert_equal(['ONE', 'x', 'y', 'two three', 'four', 'end'], getline(1, '$'))
  " A carriage return inside a line ends a line for the daemon only.
  call setline(2, "x\ry")
  call setline(5, 'FOUR')
  call AssertInSync(l:bufnr)
  call append(0, 'top')
  call AssertInSync(l:bufnr)
  call setline('$', 'changed below it')
  call AssertInSync(l:bufnr)
endfunction

function! Test_visual_order_of_a_line() abort
  let l:bufnr = Open(['abc אבג def', 'שלום (world)'])
  call assert_equal(['abc גבא def', '(world) םולש'], bidi_lsp#visual_lines(l:bufnr, 1, 2))
  2BidiVisual
  let l:winid = bufwinid('bidi-lsp://visual')
  call assert_true(l:winid > 0, 'the visual window is open')
  call assert_equal(['(world) םולש'], map(getbufline(winbufnr(l:winid), 1, '$'), 'trim(v:val)'))
  call assert_false(getwinvar(l:winid, '&rightleft'))
  call assert_equal(l:bufnr, bufnr('%'), 'back in the source window')
endfunction

function! Test_insert_direction_marks_is_idempotent() abort
  let l:bufnr = Open(['Hello عالم', 'مرحبا'])
  1,2BidiInsertMarks direction rtl
  call assert_equal([s:RLM . 'Hello عالم', 'مرحبا'], getline(1, '$'))
  call AssertInSync(l:bufnr)
  let l:edits = bidi_lsp#insert_marks(l:bufnr, 'direction', {'direction': 'rtl'},
        \ bidi_lsp#edit#lines_range(1, 2))
  call assert_equal([], l:edits, 'idempotent')
  call assert_equal('rtl', bidi_lsp#direction(l:bufnr, 1, 1)[0].direction)
  " The current line only, without a range.
  2
  BidiInsertMarks direction ltr
  call assert_equal(s:LRM . 'مرحبا', getline(2))
endfunction

function! Test_isolate_the_visual_selection() abort
  let l:bufnr = Open(['قال user: مرحبا'])
  " Select "user:" (characterwise).
  execute "normal! 0fuvf:\<Esc>"
  '<,'>BidiInsertMarks isolate
  call assert_equal(['قال ' . s:FSI . 'user:' . s:PDI . ' مرحبا'], getline(1, '$'))
  call AssertInSync(l:bufnr)
  " The same text (grown by the marks) is already one isolate.
  let l:range = {'start': {'line': 0, 'character': 7}, 'end': {'line': 0, 'character': 7 + 3 + 5 + 3}}
  call assert_equal([], bidi_lsp#insert_marks(l:bufnr, 'isolate', {}, l:range))
  call assert_match('isolate needs a selection', execute('BidiInsertMarks isolate'))
  " A whole line selected linewise is isolated within the line.
  call setline(1, 'abc')
  execute "normal! Vy\<Esc>"
  '<,'>BidiInsertMarks isolate ltr
  call assert_equal(s:LRI . 'abc' . s:PDI, getline(1))
endfunction

function! Test_placeholders_and_runs() abort
  let l:bufnr = Open(['%@ مدفوعات بدون فوائد من %@', 'تواصل معنا: support@example.com أو +1 (555) 123-4567'])
  1BidiInsertMarks placeholders
  call assert_equal(s:FSI . '%@' . s:PDI . ' مدفوعات بدون فوائد من ' . s:FSI . '%@' . s:PDI, getline(1))
  call assert_equal([], bidi_lsp#insert_marks(l:bufnr, 'placeholders', {}, bidi_lsp#edit#lines_range(1, 1)))
  let l:before = getline(2)
  2BidiInsertMarks runs
  call assert_notequal(l:before, getline(2))
  call assert_match(s:LRI . '\|' . s:FSI, getline(2))
  call assert_equal([], bidi_lsp#insert_marks(l:bufnr, 'runs', {}, bidi_lsp#edit#lines_range(2, 2)))
  call AssertInSync(l:bufnr)
  " Stripping everything gives back the text.
  BidiStrip!
  call assert_equal(['%@ مدفوعات بدون فوائد من %@', l:before], getline(1, '$'))
  call AssertInSync(l:bufnr)
endfunction

function! Test_strip_unpaired_keeps_balanced_isolates() abort
  let l:bufnr = Open(['a ' . s:LRI . 'b' . s:PDI . ' c ' . s:RLO . 'd', s:RLM . 'שלום'])
  BidiStrip
  call assert_equal(['a ' . s:LRI . 'b' . s:PDI . ' c d', s:RLM . 'שלום'], getline(1, '$'))
  BidiStrip!
  call assert_equal(['a b c d', 'שלום'], getline(1, '$'))
endfunction

function! Test_trojan_source_diagnostics_and_fix() abort
  let l:lines = ['int main(void) {', '  int isAdmin = 0;',
        \ '  /*' . s:RLO . ' } ' . s:LRI . 'if (isAdmin)' . s:PDI . ' ' . s:LRI . ' begin admins only */',
        \ '  return 0;', '}']
  let l:bufnr = Open(l:lines, 'c')
  let l:uri = bidi_lsp#buffer(l:bufnr).uri
  call WaitFor({-> !empty(bidi_lsp#diagnostics#get(l:uri))}, 'diagnostics')
  let l:items = getloclist(0)
  call assert_equal('bidi-lsp', getloclist(0, {'title': 0}).title)
  call assert_true(len(l:items) >= 1)
  call assert_equal([3], uniq(map(copy(l:items), 'v:val.lnum')))
  call assert_equal('E', l:items[0].type)
  call assert_equal(5, l:items[0].col, 'byte column of the RLO')
  call assert_match('\[bidi.inComment\]', l:items[0].text)
  call assert_equal(3, sign_getplaced(l:bufnr, {'group': 'bidi_lsp'})[0].signs[0].lnum)
  " The preferred quick fix on line 3.
  3
  let l:titles = bidi_lsp#fix(l:bufnr, 3, 0)
  call assert_notequal([], l:titles)
  call assert_notequal(l:lines[2], getline(3))
  call AssertInSync(l:bufnr)
  let l:version = bidi_lsp#buffer(l:bufnr).version
  call WaitFor({-> bidi_lsp#diagnostics#version(l:uri) == l:version}, 'a new publish')
  let l:left = filter(copy(bidi_lsp#diagnostics#get(l:uri)), 'v:val.range.start.line == 2 && v:val.range.start.character == 4')
  call assert_equal([], l:left, 'the RLO hazard is fixed')
  " Fix all the rest.
  BidiFix!
  call bidi_lsp#flush(l:bufnr)
  let l:version = bidi_lsp#buffer(l:bufnr).version
  call WaitFor({-> bidi_lsp#diagnostics#version(l:uri) == l:version}, 'a publish after fix all')
  call assert_equal([], bidi_lsp#diagnostics#get(l:uri))
  call assert_equal([], getloclist(0))
  call assert_equal([], sign_getplaced(l:bufnr, {'group': 'bidi_lsp'})[0].signs)
endfunction

function! Test_inlay_hints_name_the_controls() abort
  if !bidi_lsp#hints#supported()
    return
  endif
  let l:bufnr = Open([s:RLM . 'שלום', 'x ' . s:LRI . 'y' . s:PDI])
  call bidi_lsp#hints#refresh(l:bufnr, 1, 2)
  call assert_equal([[1, 1, '<RLM>'], [2, 3, '<LRI>'], [2, 7, '<PDI>']],
        \ map(bidi_lsp#hints#shown(l:bufnr), '[v:val.lnum, v:val.col, v:val.text]'))
  BidiHints
  call assert_equal([], bidi_lsp#hints#shown(l:bufnr))
endfunction

function! Test_set_direction_from_the_document() abort
  let l:bufnr = Open(['שלום עולם', 'مرحبا', ''])
  BidiSetDirection
  call assert_true(&rightleft)
  BidiSetDirection ltr
  call assert_false(&rightleft)
  let g:bidi_lsp_auto_direction = 1
  try
    call setline(1, ['first', 'second', 'עברית'])
    BidiSetDirection
    call assert_false(&rightleft)
  finally
    let g:bidi_lsp_auto_direction = 0
  endtry
endfunction

function! Test_filetype_auto_attach_and_language_id() abort
  let g:bidi_lsp_filetypes = ['text']
  try
    enew!
    setfiletype text
    call WaitFor({-> !empty(bidi_lsp#buffer(bufnr('%')))}, 'attached on FileType')
    enew!
    setfiletype python
    call assert_true(empty(bidi_lsp#buffer(bufnr('%'))), 'not attached')
  finally
    let g:bidi_lsp_filetypes = []
  endtry
endfunction

function! Test_uri_of_a_named_buffer() abort
  execute 'file ' . fnameescape('/tmp/bidi lsp/שלום.txt')
  call assert_equal('file:///tmp/bidi%20lsp/%D7%A9%D7%9C%D7%95%D7%9D.txt', bidi_lsp#uri(bufnr('%')))
  call setline(1, 'שלום')
  call bidi_lsp#attach(bufnr('%'))
  call AssertInSync(bufnr('%'))
endfunction

function! Test_info_shows_hover() abort
  call Open(['שלום world'])
  call assert_match('Direction: rtl', bidi_lsp#info(bufnr('%'), 1))
  call assert_match('Visual order', bidi_lsp#info(bufnr('%'), 1))
endfunction

function! Test_stop_and_restart() abort
  call Open(['x'])
  BidiStop
  call assert_false(bidi_lsp#running())
  call assert_true(empty(bidi_lsp#buffer(bufnr('%'))))
  call Open(['y'])
  call assert_true(bidi_lsp#running())
endfunction

" Opening a file used to read it, encode it and start the daemon before Vim
" drew the screen (0.1-0.4 s at 100,000 lines): the attach on FileType now
" waits for the screen, and a command attaches at once.
function! Test_filetype_attach_waits_for_the_screen() abort
  let g:bidi_lsp_filetypes = ['text']
  let l:file = tempname() . '.txt'
  call writefile(['שלום עולם', 'line two'], l:file)
  try
    call Record()
    execute 'edit ' . fnameescape(l:file)
    call assert_true(bidi_lsp#attach_pending(bufnr('%')), 'attach scheduled')
    call assert_true(empty(bidi_lsp#buffer(bufnr('%'))), 'not attached before the screen')
    call assert_equal([], Sent('textDocument/didOpen'), 'no didOpen before the screen')
    redraw
    call assert_equal('שלום עולם', trim(ScreenRow(1)), 'the screen shows the file')
    call WaitFor({-> !empty(bidi_lsp#buffer(bufnr('%')))}, 'the attach after the screen')
    call assert_false(bidi_lsp#attach_pending(bufnr('%')))
    call assert_equal(1, len(Sent('textDocument/didOpen')), 'one didOpen')
    " A command attaches a buffer whose attach is still scheduled.
    enew!
    setfiletype text
    call assert_true(bidi_lsp#attach_pending(bufnr('%')))
    call setline(1, 'שלום')
    call assert_equal('rtl', bidi_lsp#document_direction(bufnr('%')))
    call assert_false(bidi_lsp#attach_pending(bufnr('%')), 'attached by the command')
    sleep 20m
    call assert_equal(2, len(Sent('textDocument/didOpen')), 'no second didOpen from the timer')
    " A filetype changed before the attach to one not attached: none.
    enew!
    setfiletype text
    setfiletype python
    set filetype=python
    sleep 20m
    call assert_true(empty(bidi_lsp#buffer(bufnr('%'))), 'a python buffer is not attached')
    call assert_equal(2, len(Sent('textDocument/didOpen')), 'no didOpen for it')
  finally
    let g:bidi_lsp_filetypes = []
    call delete(l:file)
  endtry
endfunction
