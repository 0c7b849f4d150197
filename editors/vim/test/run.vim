" Runs the plugin's tests in a real Vim against the real daemon:
"
"   BIDI_LSP=/path/to/bidi-lsp BIDI_TEST_LOG=/tmp/vim-tests.txt \
"     vim -Nu NONE -i NONE --not-a-term -S editors/vim/test/run.vim </dev/null >/dev/null
"
" Vim runs with its screen (not in Ex mode), so that tests can read what it
" displays with screenstring(). Every function named Test_* in the
" test/test_*.vim files runs in a fresh buffer; assert_*() failures and
" exceptions fail it, and a test calls Skip(reason) when what it checks
" cannot be checked here. Writes one line per test and
" "vim: N passed, M failed, K skipped" to $BIDI_TEST_LOG (default: stdout);
" exits 1 when a test failed.

set encoding=utf-8
set nomore shortmess+=F
let s:here = expand('<sfile>:p:h')
let s:root = fnamemodify(s:here, ':h')
execute 'set runtimepath^=' . fnameescape(s:root)
filetype on
syntax on
let g:bidi_lsp_command = empty($BIDI_LSP)
      \ ? fnamemodify(s:root, ':h:h') . '/.build/release/bidi-lsp' : $BIDI_LSP
let g:bidi_lsp_timeout = 10000
let g:bidi_lsp_filetypes = []
runtime plugin/bidi_lsp.vim

let s:log = empty($BIDI_TEST_LOG) ? '/dev/stdout' : $BIDI_TEST_LOG
if s:log !=# '/dev/stdout'
  call writefile([], s:log)
endif
function! s:say(line) abort
  call writefile([a:line], s:log, 'a')
endfunction

" Ends the current test as skipped, with the reason shown.
function! Skip(reason) abort
  throw 'SKIP: ' . a:reason
endfunction

if !executable(g:bidi_lsp_command)
  call s:say('vim: the daemon is not executable: ' . g:bidi_lsp_command)
  cquit
endif

execute 'source ' . fnameescape(s:here . '/helpers.vim')
for s:file in sort(glob(s:here . '/test_*.vim', 0, 1))
  execute 'source ' . fnameescape(s:file)
endfor

let s:passed = 0
let s:failed = 0
let s:skipped = 0
let s:filter = $BIDI_TEST_FILTER
let s:defaults = {'bidi_lsp_filetypes': [], 'bidi_lsp_auto_direction': 0, 'bidi_lsp_inlay_hints': 1,
      \ 'bidi_lsp_timeout': 10000, 'bidi_lsp_restart': 1, 'bidi_lsp_margin': 50}
for s:name in sort(map(split(execute('function /^Test_'), "\n"), 'matchstr(v:val, ''Test_\w\+'')'))
  if !empty(s:filter) && s:name !~# s:filter
    continue
  endif
  let v:errors = []
  let s:skip = ''
  for [s:option, s:value] in items(s:defaults)
    let g:[s:option] = s:value
  endfor
  silent! only!
  enew!
  set norightleft arabicshape
  try
    call call(s:name, [])
  catch /^SKIP: /
    let s:skip = v:exception[6:]
  catch
    call add(v:errors, 'exception: ' . v:exception . ' at ' . v:throwpoint)
  endtry
  if !empty(v:errors)
    let s:failed += 1
    call s:say('FAIL  ' . s:name)
    for s:error in v:errors
      call s:say('      ' . s:error)
    endfor
  elseif !empty(s:skip)
    let s:skipped += 1
    call s:say('skip  ' . s:name . ': ' . s:skip)
  else
    let s:passed += 1
    call s:say('ok    ' . s:name)
  endif
  silent! %bwipeout!
endfor

call bidi_lsp#stop()
call s:say(printf('vim: %d passed, %d failed, %d skipped', s:passed, s:failed, s:skipped))
if s:failed > 0
  cquit
endif
qall!
