" Regression tests: requests and their answers, the daemon's restarts, and
" what the plugin asks by itself (issue 12, issue 10's crash safety).

" A request made while another one waits (from the callback of a third)
" used to take the waiting one's answer to out_cb: ch_evalexpr() keeps one
" waiting id per channel. Every answer must reach its own request.
function! Test_responses_reach_the_request_waiting_for_them() abort
  let l:bufnr = Open(map(range(200), '"שלום " . v:val'))
  let l:uri = bidi_lsp#buffer(l:bufnr).uri
  let g:bidi_test_nested = []
  let l:stray = bidi_lsp#rpc#stray_responses()
  let l:params = {'textDocument': {'uri': l:uri}}
  for l:i in range(5)
    call bidi_lsp#request_async('bidi/documentInfo', l:params,
          \ {-> add(g:bidi_test_nested, bidi_lsp#request('bidi/documentInfo', l:params).lineCount)})
    let l:paragraphs = bidi_lsp#direction(l:bufnr, 1, 100)
    call assert_equal(100, len(l:paragraphs), 'the outer answer, round ' . l:i)
    sleep 20m
  endfor
  call WaitFor({-> len(g:bidi_test_nested) == 5}, 'the nested answers')
  call assert_equal(repeat([201], 5), g:bidi_test_nested)
  call assert_equal(l:stray, bidi_lsp#rpc#stray_responses(), 'no answer reached out_cb')
endfunction

" Opening a buffer used to send naturalDirection and inlayHint twice (once
" from attaching, once from BufWinEnter).
function! Test_open_sends_each_request_once() abort
  let g:bidi_lsp_auto_direction = 'lines'
  call Record()
  enew!
  call setline(1, ['שלום', 'עולם'])
  let l:bufnr = Open(getline(1, '$'))
  doautocmd <nomodeline> BufWinEnter
  call WaitForView(l:bufnr)
  sleep 100m
  call assert_equal(1, len(Sent('bidi/visualOrder')), 'one direction request')
  call assert_equal(1, len(Sent('textDocument/inlayHint')), 'one hints request')
  call assert_true(&rightleft, 'auto direction applied')
  let g:bidi_lsp_auto_direction = 'majority'
  call bidi_lsp#view#schedule(l:bufnr, 0)
  call WaitForView(l:bufnr)
  call assert_equal(1, len(Sent('bidi/naturalDirection')), 'majority asks naturalDirection once')
endfunction

" The plugin asks for the visible lines (plus the margin) only: nothing of
" the whole document on open, on scrolling or after edits, and a burst of
" edits is one refresh.
function! Test_only_the_visible_lines_are_asked_for() abort
  let g:bidi_lsp_auto_direction = 1
  call Record()
  let l:bufnr = Open(map(range(5000), 'v:val % 2 ? "שלום " . v:val : "hello " . v:val'))
  call WaitForView(l:bufnr)
  let l:height = winheight(0)
  for l:method in ['textDocument/inlayHint', 'bidi/visualOrder']
    let l:ranges = map(Sent(l:method), 'v:val.params.range')
    call assert_equal(1, len(l:ranges), l:method)
    call assert_equal(0, l:ranges[0].start.line, l:method)
    call assert_true(l:ranges[0].end.line <= l:height + 50 + 1, l:method . ' ' . string(l:ranges))
  endfor
  normal! 3000Gzz
  call bidi_lsp#view#on_scroll(win_getid())
  call WaitForView(l:bufnr)
  let l:range = Sent('textDocument/inlayHint')[-1].params.range
  call assert_true(l:range.start.line >= 2999 - l:height - 50 && l:range.end.line <= 3000 + l:height + 50,
        \ string(l:range))
  let l:before = len(Sent('textDocument/inlayHint'))
  for l:i in range(5)
    call setline(3000, 'edit ' . l:i)
    doautocmd <nomodeline> TextChanged
  endfor
  call WaitForView(l:bufnr)
  call assert_equal(l:before + 1, len(Sent('textDocument/inlayHint')), 'one refresh after a burst of edits')
  for l:method in ['textDocument/inlayHint', 'bidi/visualOrder', 'bidi/naturalDirection', 'textDocument/hover']
    for l:message in Sent(l:method)
      let l:range = get(l:message.params, 'range', {'start': {'line': 0}, 'end': {'line': 0}})
      call assert_true(l:range.end.line - l:range.start.line <= 1000, l:method . ' ' . string(l:range))
    endfor
  endfor
endfunction

" :BidiStatus showed no message while there were fewer than 10.
function! Test_status_shows_the_last_messages() abort
  call Open(['x'])
  call bidi_lsp#rpc#log('first test message')
  call bidi_lsp#rpc#log('second test message')
  let l:status = execute('BidiStatus')
  call assert_match('running', l:status)
  call assert_match('first test message', l:status)
  call assert_match('second test message', l:status)
  call assert_equal(['second test message'], bidi_lsp#rpc#messages(1))
endfunction

" Killed, the daemon is started again (after a back-off) with every open
" buffer, in its current text: a following request answers on that text.
function! Test_daemon_killed_is_restarted_with_the_open_buffers() abort
  let l:bufnr = Open(['שלום', 'x'])
  let l:other = bufnr('%')
  let l:pid = job_info(bidi_lsp#job()).process
  call system('kill -9 ' . l:pid)
  call WaitFor({-> !bidi_lsp#running()}, 'the daemon to die')
  call setline(2, 'changed while it was down')
  call append('$', 'עוד שורה')
  call WaitFor({-> bidi_lsp#running()}, 'the restart')
  call assert_notequal(l:pid, job_info(bidi_lsp#job()).process)
  call assert_false(empty(bidi_lsp#buffer(l:bufnr)), 'still attached')
  call assert_match('restarted', join(bidi_lsp#messages()))
  call AssertInSync(l:bufnr)
  call assert_equal('rtl', bidi_lsp#direction(l:bufnr, 3, 3)[0].direction)
  " Changes after the restart are sent incrementally again.
  let l:version = bidi_lsp#buffer(l:bufnr).version
  call setline(1, 'hello')
  call bidi_lsp#flush(l:bufnr)
  call assert_equal(l:version + 1, bidi_lsp#buffer(l:bufnr).version, 'one didChange per change')
  call AssertInSync(l:bufnr)
  call assert_match('restarted 1 time', execute('BidiStatus'))
endfunction

function! Test_restart_back_off_doubles_up_to_thirty_seconds() abort
  call assert_equal([250, 500, 1000, 2000, 4000], map(range(5), 'bidi_lsp#rpc#backoff(v:val)'))
  call assert_equal(30000, bidi_lsp#rpc#backoff(9))
  call assert_equal(30000, bidi_lsp#rpc#backoff(50))
endfunction

" :BidiStop is not a crash: no restart follows.
function! Test_stop_does_not_restart() abort
  call Open(['x'])
  BidiStop
  sleep 400m
  call assert_false(bidi_lsp#running())
  call assert_false(bidi_lsp#rpc#restarts().pending)
endfunction
