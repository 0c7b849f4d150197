" bidi-lsp: the daemon, document sync and the user commands.
" Positions: the daemon is asked for utf-8 positions, so an LSP `character`
" is a byte offset in the line, which is Vim's col() - 1. Lines are 0-based
" in LSP and 1-based in Vim. See autoload/bidi_lsp/edit.vim.

let s:save_cpo = &cpoptions
set cpoptions&vim

" The running daemon: {job, channel, encoding, capabilities, server_info}.
let s:server = {}
" Attached buffers: bufnr -> {uri, version, lines, listener}.
let s:buffers = {}
" The daemon's job, or v:null when it does not run.
function! bidi_lsp#job() abort
  return empty(s:server) ? v:null : s:server.job
endfunction

" The last messages from the daemon (window/logMessage, stderr).
let s:log = []

" ---------------------------------------------------------------- daemon --

function! s:log_message(text) abort
  call add(s:log, a:text)
  if len(s:log) > 200
    call remove(s:log, 0, len(s:log) - 201)
  endif
endfunction

function! s:error(text) abort
  echohl ErrorMsg
  echomsg 'bidi-lsp: ' . a:text
  echohl None
endfunction

" Whether the daemon is running and initialized.
function! bidi_lsp#running() abort
  return !empty(s:server) && ch_status(s:server.channel) ==# 'open'
endfunction

" Starts the daemon if it is not running; returns whether it runs.
function! bidi_lsp#start() abort
  if bidi_lsp#running()
    return 1
  endif
  if &encoding !=# 'utf-8'
    call s:error("needs 'encoding' set to utf-8")
    return 0
  endif
  let l:command = get(g:, 'bidi_lsp_command', 'bidi-lsp')
  let l:argv = type(l:command) == v:t_list ? copy(l:command) : [l:command]
  if empty(l:argv) || !executable(l:argv[0])
    call s:error('cannot run ' . string(l:argv) . ' (set g:bidi_lsp_command)')
    return 0
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
    call s:error('the daemon did not start: ' . string(l:argv))
    return 0
  endif
  let l:channel = job_getchannel(l:job)
  let l:answer = ch_evalexpr(l:channel, {'method': 'initialize', 'params': {
        \ 'processId': getpid(),
        \ 'clientInfo': {'name': 'bidi-lsp.vim', 'version': '0.1.0'},
        \ 'rootUri': v:null,
        \ 'capabilities': {'general': {'positionEncodings': ['utf-8']}},
        \ 'initializationOptions': {'bidi': get(g:, 'bidi_lsp_settings', {})},
        \ }}, {'timeout': g:bidi_lsp_timeout})
  if type(l:answer) != v:t_dict || !has_key(l:answer, 'result')
    call s:error('initialize failed: ' . string(l:answer))
    call job_stop(l:job)
    return 0
  endif
  let l:capabilities = get(l:answer.result, 'capabilities', {})
  let l:encoding = get(l:capabilities, 'positionEncoding', 'utf-16')
  if l:encoding !=# 'utf-8'
    call s:error('the daemon chose ' . l:encoding . ' positions; this plugin needs utf-8')
    call job_stop(l:job)
    return 0
  endif
  let s:server = {'job': l:job, 'channel': l:channel, 'encoding': l:encoding,
        \ 'capabilities': l:capabilities,
        \ 'server_info': get(l:answer.result, 'serverInfo', {})}
  call ch_sendexpr(l:channel, {'method': 'initialized', 'params': {}})
  return 1
endfunction

" Shuts the daemon down (shutdown, exit) and forgets the attached buffers.
function! bidi_lsp#stop() abort
  for l:bufnr in keys(s:buffers)
    call s:detach(str2nr(l:bufnr), 0)
  endfor
  if empty(s:server)
    return
  endif
  let l:server = s:server
  let s:server = {}
  if ch_status(l:server.channel) ==# 'open'
    call ch_evalexpr(l:server.channel, {'method': 'shutdown'}, {'timeout': 2000})
    if ch_status(l:server.channel) ==# 'open'
      call ch_sendexpr(l:server.channel, {'method': 'exit'})
    endif
  endif
  let l:deadline = reltime()
  while job_status(l:server.job) ==# 'run' && reltimefloat(reltime(l:deadline)) < 2.0
    sleep 10m
  endwhile
  if job_status(l:server.job) ==# 'run'
    call job_stop(l:server.job, 'kill')
  endif
  call bidi_lsp#diagnostics#clear_all()
endfunction

" Prints the daemon's state and its last messages.
function! bidi_lsp#status() abort
  if bidi_lsp#running()
    echo printf('bidi-lsp %s running (%s), positions %s, %d buffer(s) attached',
          \ get(s:server.server_info, 'version', '?'), job_info(s:server.job).process,
          \ s:server.encoding, len(s:buffers))
  else
    echo 'bidi-lsp is not running'
  endif
  for l:line in s:log[-10:]
    echo '  ' . l:line
  endfor
endfunction

" The daemon's job, or v:null when it does not run.
function! bidi_lsp#job() abort
  return empty(s:server) ? v:null : s:server.job
endfunction

" The last messages from the daemon (its log lines on stderr, window/logMessage).
function! bidi_lsp#messages() abort
  return copy(s:log)
endfunction

function! s:on_message(channel, message) abort
  if type(a:message) != v:t_dict
    return
  endif
  let l:method = get(a:message, 'method', '')
  if l:method ==# 'textDocument/publishDiagnostics'
    call bidi_lsp#diagnostics#publish(a:message.params)
  elseif l:method ==# 'window/logMessage' || l:method ==# 'window/showMessage'
    call s:log_message(get(a:message.params, 'message', ''))
  elseif has_key(a:message, 'id') && !empty(l:method)
    " A request from the daemon: answer that it is not supported.
    call ch_sendexpr(a:channel, {'id': a:message.id,
          \ 'error': {'code': -32601, 'message': 'not supported by bidi-lsp.vim'}})
  endif
endfunction

function! s:on_stderr(channel, line) abort
  call s:log_message(a:line)
endfunction

function! s:on_exit(job, status) abort
  if !empty(s:server) && s:server.job == a:job
    let s:server = {}
    " Detach everything: attaching again opens the documents anew.
    for l:bufnr in keys(s:buffers)
      call s:detach(str2nr(l:bufnr), 0)
    endfor
    call s:log_message('daemon exited with status ' . a:status)
    call bidi_lsp#diagnostics#clear_all()
  endif
endfunction

" Sends a request and waits for its result. Throws 'bidi-lsp: ...' on an
" error answer or a timeout.
function! bidi_lsp#request(method, params) abort
  if !bidi_lsp#running() && !bidi_lsp#start()
    throw 'bidi-lsp: the daemon is not running'
  endif
  let l:answer = ch_evalexpr(s:server.channel, {'method': a:method, 'params': a:params},
        \ {'timeout': g:bidi_lsp_timeout})
  if type(l:answer) != v:t_dict || empty(l:answer)
    throw 'bidi-lsp: ' . a:method . ' timed out'
  endif
  if has_key(l:answer, 'error')
    throw 'bidi-lsp: ' . a:method . ': ' . get(l:answer.error, 'message', string(l:answer.error))
  endif
  return get(l:answer, 'result', v:null)
endfunction

" Sends a request; calls Callback(result) when the answer arrives (not on
" errors, which are logged).
function! bidi_lsp#request_async(method, params, Callback) abort
  if !bidi_lsp#running()
    return
  endif
  call ch_sendexpr(s:server.channel, {'method': a:method, 'params': a:params},
        \ {'callback': function('s:on_async_answer', [a:method, a:Callback])})
endfunction

function! s:on_async_answer(method, Callback, channel, answer) abort
  if type(a:answer) == v:t_dict && has_key(a:answer, 'result')
    call a:Callback(a:answer.result)
  elseif type(a:answer) == v:t_dict && has_key(a:answer, 'error')
    call s:log_message(a:method . ': ' . get(a:answer.error, 'message', ''))
  endif
endfunction

function! s:notify(method, params) abort
  if bidi_lsp#running()
    call ch_sendexpr(s:server.channel, {'method': a:method, 'params': a:params})
  endif
endfunction

" ------------------------------------------------------------- documents --

" LSP languageIds for Vim filetypes that differ.
let s:language_ids = {'': 'plaintext', 'text': 'plaintext', 'sh': 'shellscript',
      \ 'bash': 'shellscript', 'zsh': 'shellscript', 'objc': 'objective-c',
      \ 'objcpp': 'objective-cpp', 'cs': 'csharp'}

function! s:language_id(filetype) abort
  return get(s:language_ids, a:filetype, a:filetype)
endfunction

" The URI of a buffer: file:// for named buffers, untitled: otherwise.
function! bidi_lsp#uri(bufnr) abort
  let l:name = bufname(a:bufnr)
  if empty(l:name) || getbufvar(a:bufnr, '&buftype') !=# ''
    return 'untitled:bidi-lsp-' . a:bufnr
  endif
  let l:path = fnamemodify(l:name, ':p')
  return 'file://' . substitute(l:path, '[^A-Za-z0-9/._~-]', '\=s:percent(submatch(0))', 'g')
endfunction

" Percent-encodes each UTF-8 byte of {text}.
function! s:percent(text) abort
  return join(map(range(len(a:text)), 'printf("%%%02X", char2nr(a:text[v:val]))'), '')
endfunction

" The buffer's text as the daemon holds it: every line ends with "\n", so
" the daemon has one more (empty) line than Vim, and LSP line N is Vim line N + 1.
function! s:buffer_text(bufnr) abort
  return join(getbufline(a:bufnr, 1, '$'), "\n") . "\n"
endfunction

function! s:line_count(bufnr) abort
  return get(get(getbufinfo(a:bufnr), 0, {}), 'linecount', 0)
endfunction

" Whether a line holds a carriage return before its end. The daemon ends a
" line there, Vim does not: line numbers then differ, and changes are sent
" as the whole text.
function! s:has_inner_cr(lines) abort
  return match(a:lines, "\r.") >= 0
endfunction

" The buffer's state if it is attached, else {}.
function! bidi_lsp#buffer(bufnr) abort
  return get(s:buffers, a:bufnr, {})
endfunction

function! bidi_lsp#on_filetype(bufnr) abort
  let l:filetypes = get(g:, 'bidi_lsp_filetypes', [])
  let l:filetype = getbufvar(a:bufnr, '&filetype')
  if has_key(s:buffers, a:bufnr)
    " A new filetype is a new languageId: reopen the document.
    call s:detach(a:bufnr, 1)
    call bidi_lsp#attach(a:bufnr)
  elseif index(l:filetypes, '*') >= 0 || index(l:filetypes, l:filetype) >= 0
    call bidi_lsp#attach(a:bufnr)
  endif
endfunction

" Opens the buffer in the daemon (starting it if needed) and keeps the
" daemon's copy in step. Returns whether the buffer is attached.
function! bidi_lsp#attach(bufnr) abort
  if has_key(s:buffers, a:bufnr)
    return 1
  endif
  if !bufloaded(a:bufnr) || !bidi_lsp#start()
    return 0
  endif
  let l:state = {'uri': bidi_lsp#uri(a:bufnr), 'version': 1, 'lines': s:line_count(a:bufnr),
        \ 'has_cr': s:has_inner_cr(getbufline(a:bufnr, 1, '$'))}
  call s:notify('textDocument/didOpen', {'textDocument': {
        \ 'uri': l:state.uri, 'languageId': s:language_id(getbufvar(a:bufnr, '&filetype')),
        \ 'version': 1, 'text': s:buffer_text(a:bufnr)}})
  let l:state.listener = listener_add(function('s:on_lines'), a:bufnr)
  let s:buffers[a:bufnr] = l:state
  execute 'augroup bidi_lsp_buffer_' . a:bufnr
    autocmd!
    execute 'autocmd BufUnload <buffer=' . a:bufnr . '> call bidi_lsp#detach(' . a:bufnr . ')'
    execute 'autocmd BufReadPost <buffer=' . a:bufnr . '> call bidi_lsp#sync_full(' . a:bufnr . ')'
    execute 'autocmd BufFilePost <buffer=' . a:bufnr . '> call bidi_lsp#on_filetype(' . a:bufnr . ')'
    execute 'autocmd BufWinEnter <buffer=' . a:bufnr . '> call bidi_lsp#on_win_enter(' . a:bufnr . ')'
    execute 'autocmd TextChanged,InsertLeave <buffer=' . a:bufnr . '> call bidi_lsp#hints#refresh(' . a:bufnr . ', 1)'
  augroup END
  call bidi_lsp#on_win_enter(a:bufnr)
  return 1
endfunction

function! bidi_lsp#detach(bufnr) abort
  call s:detach(a:bufnr, 1)
endfunction

function! s:detach(bufnr, notify) abort
  let l:state = get(s:buffers, a:bufnr, {})
  if empty(l:state)
    return
  endif
  call remove(s:buffers, a:bufnr)
  silent! call listener_remove(l:state.listener)
  execute 'augroup bidi_lsp_buffer_' . a:bufnr
    autocmd!
  augroup END
  execute 'augroup! bidi_lsp_buffer_' . a:bufnr
  if a:notify
    call s:notify('textDocument/didClose', {'textDocument': {'uri': l:state.uri}})
  endif
  call bidi_lsp#diagnostics#clear(l:state.uri)
  silent! call bidi_lsp#hints#clear(a:bufnr)
endfunction

function! bidi_lsp#on_win_enter(bufnr) abort
  if get(g:, 'bidi_lsp_auto_direction', 0) && bufnr('%') == a:bufnr
    silent! call bidi_lsp#set_direction(win_getid(), '')
  endif
  call bidi_lsp#hints#refresh(a:bufnr, 1)
endfunction

" listener_add() callback, for the changes since the last call. The lines
" above the first change and the lines below the last one are unchanged;
" everything between is sent as one incremental didChange of whole lines.
" Vim gives each change's lnum/end in the numbering of its own moment, so
" the unchanged tail is counted from the end of the buffer, which changes
" above it do not move.
function! s:on_lines(bufnr, start, end, added, changes) abort
  let l:state = get(s:buffers, a:bufnr, {})
  if empty(l:state) || !bidi_lsp#running()
    return
  endif
  let l:count = s:line_count(a:bufnr)
  let l:lines_before = l:state.lines
  let l:first = a:start
  let l:tail = l:lines_before
  for l:change in a:changes
    let l:first = min([l:first, l:change.lnum])
    let l:tail = min([l:tail, l:lines_before - l:change.end + 1])
    let l:lines_before += l:change.added
  endfor
  if l:lines_before != l:count || l:tail < 0 || l:first < 1
    " Vim's report and the buffer disagree: send the whole text.
    call bidi_lsp#sync_full(a:bufnr)
    return
  endif
  let l:last_new = l:count - l:tail
  let l:lines = l:last_new >= l:first ? getbufline(a:bufnr, l:first, l:last_new) : []
  if l:state.has_cr || s:has_inner_cr(l:lines)
    let l:state.has_cr = 1
    call bidi_lsp#sync_full(a:bufnr)
    return
  endif
  let l:state.version += 1
  call s:notify('textDocument/didChange', {
        \ 'textDocument': {'uri': l:state.uri, 'version': l:state.version},
        \ 'contentChanges': [{
        \   'range': {'start': {'line': l:first - 1, 'character': 0},
        \             'end': {'line': l:state.lines - l:tail, 'character': 0}},
        \   'text': empty(l:lines) ? '' : join(l:lines, "\n") . "\n"}]})
  let l:state.lines = l:count
endfunction

" Sends the whole text of the buffer (after a reload, or to recover).
function! bidi_lsp#sync_full(bufnr) abort
  let l:state = get(s:buffers, a:bufnr, {})
  if empty(l:state)
    return
  endif
  silent! call listener_flush(a:bufnr)
  let l:state.lines = s:line_count(a:bufnr)
  let l:state.version += 1
  call s:notify('textDocument/didChange', {
        \ 'textDocument': {'uri': l:state.uri, 'version': l:state.version},
        \ 'contentChanges': [{'text': s:buffer_text(a:bufnr)}]})
endfunction

" Makes sure the buffer is attached and the daemon has its latest text;
" returns its state. Throws when it cannot attach.
function! bidi_lsp#ensure(bufnr) abort
  if !bidi_lsp#attach(a:bufnr)
    throw 'bidi-lsp: cannot attach buffer ' . a:bufnr
  endif
  call listener_flush(a:bufnr)
  return s:buffers[a:bufnr]
endfunction

" Sends the buffer's pending changes to the daemon now.
function! bidi_lsp#flush(bufnr) abort
  if has_key(s:buffers, a:bufnr)
    call listener_flush(a:bufnr)
  endif
endfunction

" The daemon's copy of the buffer: bidi/documentInfo with the text.
function! bidi_lsp#document_info(bufnr) abort
  let l:state = bidi_lsp#ensure(a:bufnr)
  return bidi_lsp#request('bidi/documentInfo', {'textDocument': {'uri': l:state.uri}, 'includeText': v:true})
endfunction

" ------------------------------------------------------------ directions --

" Params for the lines first .. last (1-based) of a buffer.
function! s:line_params(bufnr, first, last) abort
  let l:state = bidi_lsp#ensure(a:bufnr)
  return {'textDocument': {'uri': l:state.uri}, 'range': bidi_lsp#edit#lines_range(a:first, a:last)}
endfunction

" The paragraphs of lines first .. last: bidi/naturalDirection's answer.
function! bidi_lsp#direction(bufnr, first, last) abort
  return bidi_lsp#request('bidi/naturalDirection', s:line_params(a:bufnr, a:first, a:last)).paragraphs
endfunction

function! bidi_lsp#cmd_direction(first, last) abort
  try
    let l:text = []
    for l:paragraph in bidi_lsp#direction(bufnr('%'), a:first, a:last)
      let l:line = 'line ' . (l:paragraph.line + 1)
      if l:paragraph.start > 0 || l:paragraph.end < len(getline(l:paragraph.line + 1))
        let l:line .= printf(' [%d-%d]', l:paragraph.start + 1, l:paragraph.end)
      endif
      let l:line .= ': ' . l:paragraph.direction . ' (' . l:paragraph.basis
      if has_key(l:paragraph, 'strongCharacter')
        let l:line .= printf(', first strong character at %d:%d',
              \ l:paragraph.strongCharacter.line + 1, l:paragraph.strongCharacter.character + 1)
      endif
      call add(l:text, l:line . ')')
    endfor
    echo join(l:text, "\n")
  catch /^bidi-lsp:/
    call s:error(v:exception[10:])
  endtry
endfunction

" The natural direction of a whole buffer: the direction of most paragraphs
" that have a strong character (the first of them on a tie), else ''.
function! bidi_lsp#document_direction(bufnr) abort
  let l:count = {'ltr': 0, 'rtl': 0}
  let l:first = ''
  for l:paragraph in bidi_lsp#direction(a:bufnr, 1, s:line_count(a:bufnr))
    if l:paragraph.basis !=# 'fallback'
      let l:count[l:paragraph.direction] += 1
      let l:first = empty(l:first) ? l:paragraph.direction : l:first
    endif
  endfor
  if l:count.ltr == l:count.rtl
    return l:first
  endif
  return l:count.rtl > l:count.ltr ? 'rtl' : 'ltr'
endfunction

" Sets 'rightleft' in window winid: from {direction} ('ltr' or 'rtl'), or
" from its buffer's natural direction when {direction} is empty.
function! bidi_lsp#set_direction(winid, direction) abort
  let l:direction = a:direction
  if empty(l:direction)
    let l:direction = bidi_lsp#document_direction(winbufnr(a:winid))
  endif
  if empty(l:direction)
    return ''
  endif
  call setwinvar(a:winid, '&rightleft', l:direction ==# 'rtl')
  return l:direction
endfunction

function! bidi_lsp#cmd_set_direction(direction) abort
  if index(['', 'ltr', 'rtl'], a:direction) < 0
    call s:error('expected ltr or rtl, got ' . a:direction)
    return
  endif
  try
    let l:direction = bidi_lsp#set_direction(win_getid(), a:direction)
    echo empty(l:direction) ? 'bidi-lsp: no strong character; direction unchanged'
          \ : 'bidi-lsp: ' . (l:direction ==# 'rtl' ? 'rightleft' : 'norightleft')
  catch /^bidi-lsp:/
    call s:error(v:exception[10:])
  endtry
endfunction

function! bidi_lsp#complete_direction(arglead, cmdline, cursorpos) abort
  return filter(['ltr', 'rtl'], 'v:val =~# "^" . a:arglead')
endfunction

" ---------------------------------------------------------- visual order --

" The visual order of lines first .. last: one string per paragraph, as the
" text displays left to right (for terminals that do not reorder).
function! bidi_lsp#visual_lines(bufnr, first, last) abort
  let l:params = s:line_params(a:bufnr, a:first, a:last)
  let l:params.include = ['visualText']
  let l:result = []
  for l:paragraph in bidi_lsp#request('bidi/visualOrder', l:params).paragraphs
    call add(l:result, join(map(copy(l:paragraph.lines), 'v:val.visualText'), ''))
  endfor
  return l:result
endfunction

function! bidi_lsp#cmd_visual(first, last) abort
  try
    let l:lines = bidi_lsp#visual_lines(bufnr('%'), a:first, a:last)
  catch /^bidi-lsp:/
    call s:error(v:exception[10:])
    return
  endtry
  let l:source = bufname('%')
  let l:winid = bufwinid('bidi-lsp://visual')
  if l:winid > 0
    call win_gotoid(l:winid)
  else
    execute 'silent botright ' . min([len(l:lines) + 1, 12]) . 'new bidi-lsp://visual'
    setlocal buftype=nofile bufhidden=wipe noswapfile nobuflisted norightleft nolist nospell
  endif
  setlocal modifiable
  silent %delete _
  call setline(1, l:lines)
  setlocal nomodifiable
  let w:bidi_lsp_source = l:source
  wincmd p
endfunction

" Hover text for a line: its direction, alignment and visual order.
function! bidi_lsp#info(bufnr, lnum) abort
  let l:state = bidi_lsp#ensure(a:bufnr)
  let l:answer = bidi_lsp#request('textDocument/hover', {'textDocument': {'uri': l:state.uri},
        \ 'position': {'line': a:lnum - 1, 'character': 0}})
  return type(l:answer) == v:t_dict ? l:answer.contents.value : ''
endfunction

function! bidi_lsp#cmd_info(lnum) abort
  try
    echo bidi_lsp#info(bufnr('%'), a:lnum)
  catch /^bidi-lsp:/
    call s:error(v:exception[10:])
  endtry
endfunction

" ------------------------------------------------------------ insertMarks --

" The second argument of :BidiInsertMarks, per mode.
let s:mode_argument = {'direction': 'direction', 'isolate': 'isolate',
      \ 'placeholders': 'style', 'strip': 'only', 'runs': ''}
let s:mode_values = {'direction': ['ltr', 'rtl'], 'isolate': ['auto', 'ltr', 'rtl'],
      \ 'placeholders': ['isolate', 'marks'], 'strip': ['all', 'unpaired'], 'runs': []}

function! bidi_lsp#complete_modes(arglead, cmdline, cursorpos) abort
  let l:words = split(a:cmdline[: a:cursorpos - 1], '\s\+', 1)
  let l:mode = len(l:words) > 2 ? l:words[1] : ''
  let l:choices = empty(l:mode) ? sort(keys(s:mode_argument)) : get(s:mode_values, l:mode, [])
  return filter(copy(l:choices), 'v:val =~# "^" . a:arglead')
endfunction

" Asks bidi/insertMarks for {mode} with {options} over {range} (an LSP
" Range) and applies the edits to the buffer. Returns the edits applied.
function! bidi_lsp#insert_marks(bufnr, mode, options, range) abort
  let l:state = bidi_lsp#ensure(a:bufnr)
  let l:params = extend({'textDocument': {'uri': l:state.uri}, 'mode': a:mode, 'range': a:range},
        \ a:options, 'keep')
  let l:edits = bidi_lsp#request('bidi/insertMarks', l:params).edits
  call bidi_lsp#edit#apply(a:bufnr, l:edits)
  return l:edits
endfunction

" The LSP Range of the last visual selection if {first}..{last} are its
" lines, else of the whole lines first .. last.
function! s:command_range(count, first, last) abort
  if a:count > 0 && a:first == line("'<") && a:last == line("'>") && visualmode() !=# 'V'
        \ && visualmode() !=# ''
    return bidi_lsp#edit#selection_range()
  endif
  return bidi_lsp#edit#lines_range(a:first, a:last)
endfunction

function! bidi_lsp#cmd_insert_marks(count, first, last, mode, ...) abort
  if !has_key(s:mode_argument, a:mode)
    call s:error('unknown mode ' . a:mode . '; expected one of ' . join(sort(keys(s:mode_argument)), ', '))
    return
  endif
  let l:options = {}
  for l:argument in a:000
    if l:argument =~# '='
      let [l:key, l:value] = matchlist(l:argument, '\([^=]*\)=\(.*\)')[1:2]
      let l:options[l:key] = l:value
    elseif !empty(s:mode_argument[a:mode])
      let l:options[s:mode_argument[a:mode]] = l:argument
    endif
  endfor
  if a:mode ==# 'direction' && !has_key(l:options, 'direction')
    call s:error('direction needs ltr or rtl')
    return
  endif
  let l:range = a:count == 0 && a:mode !=# 'strip' ? bidi_lsp#edit#lines_range(line('.'), line('.'))
        \ : s:command_range(a:count, a:first, a:last)
  if a:mode ==# 'isolate' && a:count == 0
    call s:error('isolate needs a selection (use it from Visual mode)')
    return
  endif
  if a:mode ==# 'isolate' && l:range.start.line + 1 == l:range.end.line && l:range.end.character == 0
    " One whole line: isolate its text, within the line.
    let l:range.end = {'line': l:range.start.line, 'character': len(getline(l:range.end.line))}
  endif
  try
    let l:edits = bidi_lsp#insert_marks(bufnr('%'), a:mode, l:options, l:range)
    echo printf('bidi-lsp: %s: %d edit%s', a:mode, len(l:edits), len(l:edits) == 1 ? '' : 's')
  catch /^bidi-lsp:/
    call s:error(v:exception[10:])
  endtry
endfunction

function! bidi_lsp#visual_insert_marks(mode) abort
  try
    call bidi_lsp#insert_marks(bufnr('%'), a:mode, {}, visualmode() ==# 'V'
          \ ? bidi_lsp#edit#lines_range(line("'<"), line("'>")) : bidi_lsp#edit#selection_range())
  catch /^bidi-lsp:/
    call s:error(v:exception[10:])
  endtry
endfunction

" ----------------------------------------------------------- code actions --

" The code actions for lines first .. last, of the kinds in {only}.
function! bidi_lsp#code_actions(bufnr, first, last, only) abort
  let l:state = bidi_lsp#ensure(a:bufnr)
  let l:range = bidi_lsp#edit#lines_range(a:first, a:last)
  let l:diagnostics = filter(copy(bidi_lsp#diagnostics#get(l:state.uri)),
        \ 'v:val.range.start.line >= a:first - 1 && v:val.range.start.line <= a:last - 1')
  return bidi_lsp#request('textDocument/codeAction', {'textDocument': {'uri': l:state.uri},
        \ 'range': l:range, 'context': {'diagnostics': l:diagnostics, 'only': a:only}})
endfunction

" Applies the preferred quick fix on line {lnum} (or, with {all}, the first
" fix-all action of the file). Returns the title of the action, or ''.
function! bidi_lsp#fix(bufnr, lnum, all) abort
  let l:actions = a:all
        \ ? bidi_lsp#code_actions(a:bufnr, 1, s:line_count(a:bufnr), ['source.fixAll'])
        \ : bidi_lsp#code_actions(a:bufnr, a:lnum, a:lnum, ['quickfix'])
  if empty(l:actions)
    return ''
  endif
  let l:preferred = filter(copy(l:actions), 'get(v:val, "isPreferred", v:false)')
  let l:action = empty(l:preferred) ? l:actions[0] : l:preferred[0]
  call bidi_lsp#edit#apply_workspace_edit(get(l:action, 'edit', {}))
  return l:action.title
endfunction

function! bidi_lsp#cmd_fix(lnum, all) abort
  try
    let l:title = bidi_lsp#fix(bufnr('%'), a:lnum, a:all)
    echo empty(l:title) ? 'bidi-lsp: nothing to fix' . (a:all ? '' : ' on this line') : 'bidi-lsp: ' . l:title
  catch /^bidi-lsp:/
    call s:error(v:exception[10:])
  endtry
endfunction

function! bidi_lsp#cmd_diagnostics() abort
  try
    call bidi_lsp#ensure(bufnr('%'))
  catch /^bidi-lsp:/
    call s:error(v:exception[10:])
    return
  endtry
  call bidi_lsp#diagnostics#fill_loclist(win_getid(), 1)
  lopen
endfunction

" The bufnr attached under {uri}, or -1.
function! bidi_lsp#bufnr_of(uri) abort
  for [l:bufnr, l:state] in items(s:buffers)
    if l:state.uri ==# a:uri
      return str2nr(l:bufnr)
    endif
  endfor
  return -1
endfunction

let &cpoptions = s:save_cpo
unlet s:save_cpo
