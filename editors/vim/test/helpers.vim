" Helpers of the Vim plugin's tests (sourced by run.vim before the tests).

let g:LRM = "\u200e"
let g:RLM = "\u200f"
let g:RLO = "\u202e"
let g:LRI = "\u2066"
let g:FSI = "\u2068"
let g:PDI = "\u2069"

" A new buffer holding {lines}, attached to the daemon.
function! Open(lines, ...) abort
  enew!
  call setline(1, a:lines)
  if a:0
    execute 'setfiletype ' . a:1
  endif
  call assert_true(bidi_lsp#attach(bufnr('%')), 'attach')
  return bufnr('%')
endfunction

" Checks that the daemon's copy of the buffer is the buffer's text.
function! AssertInSync(bufnr) abort
  let l:info = bidi_lsp#document_info(a:bufnr)
  call assert_equal(join(getbufline(a:bufnr, 1, '$'), "\n") . "\n", l:info.text, 'daemon copy')
  call assert_equal(bidi_lsp#buffer(a:bufnr).version, l:info.version, 'version')
endfunction

" Starts recording what Vim sends on its channels (ch_logfile()).
function! Record() abort
  let g:bidi_test_channel_log = tempname()
  call ch_logfile(g:bidi_test_channel_log, 'w')
endfunction

" The messages sent since Record() whose method is {method}.
function! Sent(method) abort
  call ch_logfile('')
  let l:messages = []
  let l:after_send = 0
  for l:line in readfile(g:bidi_test_channel_log)
    if l:line =~# ' SEND on '
      let l:after_send = 1
    elseif l:after_send && l:line =~# '^{'
      let l:after_send = 0
      let l:message = json_decode(substitute(l:line, "'$", '', ''))
      if get(l:message, 'method', '') ==# a:method
        call add(l:messages, l:message)
      endif
    endif
  endfor
  call ch_logfile(g:bidi_test_channel_log, 'a')
  return l:messages
endfunction

" Waits until the plugin has no refresh of {bufnr} scheduled or in flight.
function! WaitForView(bufnr) abort
  call WaitFor({-> !bidi_lsp#view#busy(a:bufnr)}, 'the view refresh')
endfunction

" The text of screen row {row} (all columns).
function! ScreenRow(row) abort
  return join(map(range(1, &columns), 'screenstring(a:row, v:val)'), '')
endfunction

" Waits until Condition() is true (Vim handles channel messages meanwhile).
function! WaitFor(Condition, what) abort
  let l:start = reltime()
  while !a:Condition()
    if reltimefloat(reltime(l:start)) > 10.0
      call assert_report('timed out waiting for ' . a:what)
      return
    endif
    sleep 20m
  endwhile
endfunction

