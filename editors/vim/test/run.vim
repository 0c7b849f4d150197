" Runs the plugin's tests in a real Vim against the real daemon:
"
"   BIDI_LSP=/path/to/bidi-lsp vim -Nu NONE -i NONE -es -S editors/vim/test/run.vim
"
" Every function named Test_* in the test/test_*.vim files runs in a fresh
" buffer; assert_*() failures and exceptions fail it. Prints one line per
" test and "N passed, M failed" on stdout; exits 1 when a test failed.

set encoding=utf-8
set nomore
let s:here = expand('<sfile>:p:h')
let s:root = fnamemodify(s:here, ':h')
execute 'set runtimepath^=' . fnameescape(s:root)
filetype on
let g:bidi_lsp_command = empty($BIDI_LSP)
      \ ? fnamemodify(s:root, ':h:h') . '/.build/release/bidi-lsp' : $BIDI_LSP
let g:bidi_lsp_timeout = 10000
let g:bidi_lsp_filetypes = []
runtime plugin/bidi_lsp.vim

let s:output = []
function! s:say(line) abort
  call writefile([a:line], '/dev/stdout', 'a')
endfunction

if !executable(g:bidi_lsp_command)
  call s:say('vim: the daemon is not executable: ' . g:bidi_lsp_command)
  cquit
endif

for s:file in sort(glob(s:here . '/test_*.vim', 0, 1))
  execute 'source ' . fnameescape(s:file)
endfor

let s:passed = 0
let s:failed = 0
let s:filter = $BIDI_TEST_FILTER
for s:name in sort(map(split(execute('function /^Test_'), "\n"), 'matchstr(v:val, ''Test_\w\+'')'))
  if !empty(s:filter) && s:name !~# s:filter
    continue
  endif
  let v:errors = []
  enew!
  try
    call call(s:name, [])
  catch
    call add(v:errors, 'exception: ' . v:exception . ' at ' . v:throwpoint)
  endtry
  if empty(v:errors)
    let s:passed += 1
    call s:say('ok    ' . s:name)
  else
    let s:failed += 1
    call s:say('FAIL  ' . s:name)
    for s:error in v:errors
      call s:say('      ' . s:error)
    endfor
  endif
  silent! %bwipeout!
endfor

call bidi_lsp#stop()
call s:say(printf('vim: %d passed, %d failed', s:passed, s:failed))
if s:failed > 0
  cquit
endif
qall!
