" bidi-lsp: the daemon's process, its requests and its restarts.
"
" Every request is sent with ch_sendexpr() and a callback: Vim then hands
" each response to the callback registered under its id, never to the
" channel's out_cb. A synchronous request waits for its callback with
" :sleep, which lets Vim handle the channel (and timers) meanwhile, so a
" request made while another one waits (from a timer or a callback) cannot
" take the other's answer. ch_evalexpr() is not used: it keeps one waiting
" id per channel, and a nested wait makes the outer answer go to out_cb.

let s:save_cpo = &cpoptions
set cpoptions&vim

" The running daemon: {job, channel, encoding, capabilities, server_info, started}.
let s:server = {}
" The last messages from the daemon (window/logMessage, stderr) and the plugin.
let s:log = []
" Responses that reached out_cb (none should): counted for :BidiStatus.
let s:stray = 0
" Synchronous requests waiting for their answer: id -> box.
let s:waiting = {}
" Restarts after a crash: attempts in a row, the pending timer, and whether
" the daemon is being stopped on purpose.
let s:restart = {'attempts': 0, 'timer': -1, 'total': 0}
" Restarts in a row before the plugin gives up (editors/README.md, "One policy").
let s:restart_attempts = 5
let s:stopping = 0

" -------------------------------------------------------------- messages --

function! bidi_lsp#rpc#log(text) abort
  call add(s:log, a:text)
  if len(s:log) > 200
    call remove(s:log, 0, len(s:log) - 201)
  endif
endfunction

" The last {count} messages (all of them when there are fewer).
function! bidi_lsp#rpc#messages(...) abort
  let l:count = a:0 ? a:1 : len(s:log)
  return l:count >= len(s:log) ? copy(s:log) : s:log[len(s:log) - l:count :]
endfunction

function! bidi_lsp#rpc#stray_responses() abort
  return s:stray
endfunction

" ---------------------------------------------------------------- daemon --

function! bidi_lsp#rpc#running() abort
  return !empty(s:server) && ch_status(s:server.channel) ==# 'open'
endfunction

function! bidi_lsp#rpc#job() abort
  return empty(s:server) ? v:null : s:server.job
endfunction

function! bidi_lsp#rpc#server() abort
  return s:server
endfunction

" The restart state: {attempts, total, pending}.
function! bidi_lsp#rpc#restarts() abort
  return {'attempts': s:restart.attempts, 'total': s:restart.total,
        \ 'pending': s:restart.timer >= 0}
endfunction

" The delay before restart number {attempt} (0-based), in milliseconds:
" 250 ms doubling up to 30 s.
function! bidi_lsp#rpc#backoff(attempt) abort
  let l:delay = 250
  for l:i in range(min([a:attempt, 8]))
    let l:delay = l:delay * 2
  endfor
  return min([l:delay, 30000])
endfunction

" Starts the daemon if it is not running; returns whether it runs. Throws
" 'bidi-lsp: ...' when it cannot start.
function! bidi_lsp#rpc#start() abort
  if bidi_lsp#rpc#running()
    return 1
  endif
  call s:cancel_restart()
  if &encoding !=# 'utf-8'
    throw "bidi-lsp: needs 'encoding' set to utf-8"
  endif
  let l:command = get(g:, 'bidi_lsp_command', 'bidi-lsp')
  let l:argv = type(l:command) == v:t_list ? copy(l:command) : [l:command]
  if empty(l:argv) || !executable(l:argv[0])
    throw 'bidi-lsp: cannot run ' . string(l:argv) . ' (set g:bidi_lsp_command)'
  endif
  if !empty(get(g:, 'bidi_lsp_log_file', ''))
    call extend(l:argv, ['--log-file', g:bidi_lsp_log_file])
  endif
  let l:job = job_start(l:argv, {
        \ 'in_mode': 'lsp', 'out_mode': 'lsp', 'err_mode': 'nl',
        \ 'out_cb': function('s:on_message'),
        \ 'err_cb': function('s:on_stderr'),
        \ 'exit_cb': function('s:on_exit'),
        \ 'noblock': 1, 'stoponexit': 'term'})
  if job_status(l:job) !=# 'run'
    throw 'bidi-lsp: the daemon did not start: ' . string(l:argv)
  endif
  let s:server = {'job': l:job, 'channel': job_getchannel(l:job), 'encoding': '',
        \ 'capabilities': {}, 'server_info': {}, 'started': reltime()}
  try
    let l:result = bidi_lsp#rpc#request('initialize', {
          \ 'processId': getpid(),
          \ 'clientInfo': {'name': 'bidi-lsp.vim', 'version': '0.3.0'},
          \ 'rootUri': v:null,
          \ 'capabilities': {'general': {'positionEncodings': ['utf-8']}},
          \ 'initializationOptions': {'bidi': get(g:, 'bidi_lsp_settings', {})},
          \ })
  catch /^bidi-lsp:/
    call s:kill(l:job)
    throw 'bidi-lsp: initialize failed: ' . v:exception[10:]
  endtry
  let l:capabilities = get(l:result, 'capabilities', {})
  let l:encoding = get(l:capabilities, 'positionEncoding', 'utf-16')
  if l:encoding !=# 'utf-8'
    call s:kill(l:job)
    throw 'bidi-lsp: the daemon chose ' . l:encoding . ' positions; this plugin needs utf-8'
  endif
  call extend(s:server, {'encoding': l:encoding, 'capabilities': l:capabilities,
        \ 'server_info': get(l:result, 'serverInfo', {})})
  call bidi_lsp#rpc#notify('initialized', {})
  return 1
endfunction

function! s:kill(job) abort
  let s:server = {}
  if job_status(a:job) ==# 'run'
    call job_stop(a:job, 'kill')
  endif
endfunction

" Shuts the daemon down (shutdown, exit); no restart follows.
function! bidi_lsp#rpc#stop() abort
  call s:cancel_restart()
  let s:restart.attempts = 0
  if empty(s:server)
    return
  endif
  let s:stopping = 1
  try
    let l:server = s:server
    if bidi_lsp#rpc#running()
      silent! call bidi_lsp#rpc#request('shutdown', v:null, 2000)
      if ch_status(l:server.channel) ==# 'open'
        call ch_sendexpr(l:server.channel, {'method': 'exit'})
      endif
    endif
    let s:server = {}
    let l:start = reltime()
    while job_status(l:server.job) ==# 'run' && reltimefloat(reltime(l:start)) < 2.0
      sleep 10m
    endwhile
    if job_status(l:server.job) ==# 'run'
      call job_stop(l:server.job, 'kill')
    endif
  finally
    let s:server = {}
    let s:stopping = 0
  endtry
endfunction

function! s:on_message(channel, message) abort
  if type(a:message) != v:t_dict
    return
  endif
  let l:method = get(a:message, 'method', '')
  if l:method ==# 'textDocument/publishDiagnostics'
    call bidi_lsp#diagnostics#publish(a:message.params)
  elseif l:method ==# 'window/logMessage' || l:method ==# 'window/showMessage'
    call bidi_lsp#rpc#log(get(a:message.params, 'message', ''))
  elseif has_key(a:message, 'id') && !empty(l:method)
    " A request from the daemon: answer that it is not supported.
    call ch_sendexpr(a:channel, {'id': a:message.id,
          \ 'error': {'code': -32601, 'message': 'not supported by bidi-lsp.vim'}})
  elseif has_key(a:message, 'id')
    let s:stray += 1
    call bidi_lsp#rpc#log('a response no request waited for: id ' . string(a:message.id))
  endif
endfunction

function! s:on_stderr(channel, line) abort
  call bidi_lsp#rpc#log(a:line)
endfunction

function! s:on_exit(job, status) abort
  if empty(s:server) || s:server.job != a:job
    return
  endif
  let l:lived = reltimefloat(reltime(s:server.started))
  let s:server = {}
  for l:box in values(s:waiting)
    let l:box.error = 'the daemon exited'
  endfor
  call bidi_lsp#rpc#log('daemon exited with status ' . a:status)
  call bidi_lsp#on_daemon_exit()
  if s:stopping || !get(g:, 'bidi_lsp_restart', 1)
    return
  endif
  " The restart policy of every plugin (editors/README.md): a daemon that
  " ran a minute starts the count again; five restarts in a row at most.
  if l:lived > 60.0
    let s:restart.attempts = 0
  endif
  if s:give_up()
    return
  endif
  let l:delay = bidi_lsp#rpc#backoff(s:restart.attempts)
  let s:restart.attempts += 1
  call bidi_lsp#rpc#log(printf('restarting the daemon in %d ms', l:delay))
  let s:restart.timer = timer_start(l:delay, function('s:on_restart_timer'))
endfunction

" After the last restart in a row: says so, and a start by hand begins a
" new count. Returns whether it gave up.
function! s:give_up() abort
  if s:restart.attempts < s:restart_attempts
    return 0
  endif
  let l:text = printf('the daemon died %d times in a row; :BidiStart starts it', s:restart.attempts)
  call bidi_lsp#rpc#log(l:text)
  echohl WarningMsg | echomsg 'bidi-lsp: ' . l:text | echohl None
  let s:restart.attempts = 0
  return 1
endfunction

function! s:cancel_restart() abort
  if s:restart.timer >= 0
    call timer_stop(s:restart.timer)
    let s:restart.timer = -1
  endif
endfunction

function! s:on_restart_timer(timer) abort
  let s:restart.timer = -1
  if bidi_lsp#rpc#running()
    return
  endif
  try
    call bidi_lsp#rpc#start()
    let s:restart.total += 1
    call bidi_lsp#rpc#log('daemon restarted')
    call bidi_lsp#reopen_all()
  catch /^bidi-lsp:/
    call bidi_lsp#rpc#log(v:exception)
    if s:give_up()
      return
    endif
    let l:delay = bidi_lsp#rpc#backoff(s:restart.attempts)
    let s:restart.attempts += 1
    let s:restart.timer = timer_start(l:delay, function('s:on_restart_timer'))
  endtry
endfunction

" -------------------------------------------------------------- requests --

function! s:message(method, params) abort
  let l:message = {'method': a:method}
  if a:params isnot v:null
    let l:message.params = a:params
  endif
  return l:message
endfunction

" Sends a request and waits for its result (at most {timeout} ms, default
" g:bidi_lsp_timeout). Throws 'bidi-lsp: ...' on an error answer, a timeout
" or when the daemon exits meanwhile.
function! bidi_lsp#rpc#request(method, params, ...) abort
  if !bidi_lsp#rpc#running()
    throw 'bidi-lsp: the daemon is not running'
  endif
  let l:timeout = a:0 ? a:1 : get(g:, 'bidi_lsp_timeout', 5000)
  let l:box = {}
  let l:sent = ch_sendexpr(s:server.channel, s:message(a:method, a:params),
        \ {'callback': function('s:on_sync_answer', [l:box])})
  let l:id = get(l:sent, 'id', 0)
  let s:waiting[l:id] = l:box
  try
    let l:start = reltime()
    while !has_key(l:box, 'answer') && !has_key(l:box, 'error')
      if reltimefloat(reltime(l:start)) * 1000 > l:timeout
        let l:box.stale = 1
        call bidi_lsp#rpc#cancel(l:id)
        throw 'bidi-lsp: ' . a:method . ' timed out'
      endif
      sleep 1m
    endwhile
  finally
    silent! call remove(s:waiting, l:id)
  endtry
  if has_key(l:box, 'error')
    throw 'bidi-lsp: ' . a:method . ': ' . l:box.error
  endif
  let l:answer = l:box.answer
  if type(l:answer) != v:t_dict
    throw 'bidi-lsp: ' . a:method . ': no answer'
  endif
  if has_key(l:answer, 'error')
    throw 'bidi-lsp: ' . a:method . ': ' . get(l:answer.error, 'message', string(l:answer.error))
  endif
  return get(l:answer, 'result', v:null)
endfunction

function! s:on_sync_answer(box, channel, answer) abort
  if !get(a:box, 'stale', 0)
    let a:box.answer = a:answer
  endif
endfunction

" Sends a request; calls Callback(result) when its answer arrives (errors
" are logged, except a cancellation). Returns the request's id, or 0 when
" the daemon does not run.
function! bidi_lsp#rpc#request_async(method, params, Callback) abort
  if !bidi_lsp#rpc#running()
    return 0
  endif
  let l:sent = ch_sendexpr(s:server.channel, s:message(a:method, a:params),
        \ {'callback': function('s:on_async_answer', [a:method, a:Callback])})
  return get(l:sent, 'id', 0)
endfunction

function! s:on_async_answer(method, Callback, channel, answer) abort
  if type(a:answer) == v:t_dict && has_key(a:answer, 'result')
    call a:Callback(a:answer.result)
  elseif type(a:answer) == v:t_dict && has_key(a:answer, 'error')
        \ && get(a:answer.error, 'code', 0) != -32800
    call bidi_lsp#rpc#log(a:method . ': ' . get(a:answer.error, 'message', ''))
  endif
endfunction

" Asks the daemon to cancel request {id} (its answer, if any, still goes to
" its callback, which then ignores it).
function! bidi_lsp#rpc#cancel(id) abort
  if a:id > 0
    call bidi_lsp#rpc#notify('$/cancelRequest', {'id': a:id})
  endif
endfunction

function! bidi_lsp#rpc#notify(method, params) abort
  if bidi_lsp#rpc#running()
    call ch_sendexpr(s:server.channel, s:message(a:method, a:params))
  endif
endfunction

let &cpoptions = s:save_cpo
unlet s:save_cpo
