" bidi-lsp: the attached buffers and their copies in the daemon.
" Positions: the daemon is asked for utf-8 positions, so an LSP `character`
" is a byte offset in the line, which is Vim's col() - 1. Lines are 0-based
" in LSP and 1-based in Vim. See autoload/bidi_lsp/edit.vim.
" The daemon itself: autoload/bidi_lsp/rpc.vim; the user commands:
" autoload/bidi_lsp/commands.vim; what is asked for the visible lines:
" autoload/bidi_lsp/view.vim.

let s:save_cpo = &cpoptions
set cpoptions&vim

" Attached buffers: bufnr -> {uri, version, lines, has_cr, listener, reopening}.
let s:buffers = {}
" bufnr -> timer id: buffers whose attach waits for the screen to be drawn.
let s:pending = {}

function! s:error(text) abort
  echohl ErrorMsg
  echomsg 'bidi-lsp: ' . a:text
  echohl None
endfunction

" ---------------------------------------------------------------- daemon --

function! bidi_lsp#running() abort
  return bidi_lsp#rpc#running()
endfunction

" Starts the daemon if it is not running; returns whether it runs.
function! bidi_lsp#start() abort
  try
    return bidi_lsp#rpc#start()
  catch /^bidi-lsp:/
    call s:error(v:exception[10:])
    return 0
  endtry
endfunction

" Shuts the daemon down (shutdown, exit) and detaches every buffer.
function! bidi_lsp#stop() abort
  for l:timer in values(s:pending)
    call timer_stop(l:timer)
  endfor
  let s:pending = {}
  for l:bufnr in keys(s:buffers)
    call s:detach(str2nr(l:bufnr), 0)
  endfor
  call bidi_lsp#rpc#stop()
  call bidi_lsp#diagnostics#clear_all()
endfunction

function! bidi_lsp#job() abort
  return bidi_lsp#rpc#job()
endfunction

" The last messages from the daemon (its log lines on stderr, window/logMessage).
function! bidi_lsp#messages() abort
  return bidi_lsp#rpc#messages()
endfunction

" Sends a request and waits for its result. Throws 'bidi-lsp: ...' on an
" error answer or a timeout. Starts the daemon if needed.
function! bidi_lsp#request(method, params) abort
  if !bidi_lsp#rpc#running()
    call bidi_lsp#rpc#start()
    call bidi_lsp#reopen_all()
  endif
  return bidi_lsp#rpc#request(a:method, a:params)
endfunction

" Sends a request; calls Callback(result) when the answer arrives. Returns
" the request's id (0 when the daemon does not run).
function! bidi_lsp#request_async(method, params, Callback) abort
  return bidi_lsp#rpc#request_async(a:method, a:params, a:Callback)
endfunction

" Called by rpc.vim when the daemon died: the buffers stay attached (their
" listeners keep counting lines) and are opened again after the restart.
function! bidi_lsp#on_daemon_exit() abort
  call bidi_lsp#diagnostics#clear_all()
  call bidi_lsp#view#forget_requests()
endfunction

" Opens every attached buffer again in a new daemon, with its current text.
function! bidi_lsp#reopen_all() abort
  for [l:key, l:state] in items(s:buffers)
    let l:bufnr = str2nr(l:key)
    if !bufloaded(l:bufnr)
      continue
    endif
    let l:state.reopening = 1
    try
      call listener_flush(l:bufnr)
    finally
      let l:state.reopening = 0
    endtry
    let l:state.version += 1
    call s:open(l:bufnr, l:state)
    call bidi_lsp#view#schedule(l:bufnr, 0)
  endfor
endfunction

" ------------------------------------------------------------- documents --

" LSP languageIds for Vim filetypes that differ (see COORDINATION's list for
" the localization formats: strings, stringsdict, xcstrings, arb, po and
" jproperties are sent as they are).
let s:language_ids = {'': 'plaintext', 'text': 'plaintext', 'sh': 'shellscript',
      \ 'bash': 'shellscript', 'zsh': 'shellscript', 'objc': 'objective-c',
      \ 'objcpp': 'objective-cpp', 'cs': 'csharp', 'webvtt': 'vtt'}

function! bidi_lsp#language_id(filetype) abort
  return get(s:language_ids, a:filetype, a:filetype)
endfunction

" Filetypes of localization files: commands act on the value under the
" cursor there, not on whole lines.
let s:localization = ['strings', 'stringsdict', 'xcstrings', 'arb', 'po',
      \ 'jproperties', 'xliff', 'resx']

" Filetypes of the other structured documents (contract §8): Markdown,
" whose paragraphs are rendered blocks, and subtitles, whose paragraphs are
" cue lines. As in localization files, commands act on the block or cue
" line under the cursor.
let s:documents = ['markdown', 'srt', 'webvtt']

" Whether the daemon reads buffer {bufnr} as a structured document
" (localization, Markdown, subtitles): its paragraphs are not its lines.
function! bidi_lsp#is_structured(bufnr) abort
  return index(s:documents, getbufvar(a:bufnr, '&filetype')) >= 0
        \ || bidi_lsp#is_localization(a:bufnr)
endfunction

function! bidi_lsp#is_localization(bufnr) abort
  let l:filetype = getbufvar(a:bufnr, '&filetype')
  if index(s:localization, l:filetype) >= 0
    return 1
  endif
  let l:name = bufname(a:bufnr)
  return l:name =~? '\.\%(xlf\|xliff\|resx\|properties\|pot\)$'
        \ || (l:filetype ==# 'xml' && l:name =~# '\%(^\|/\)values\%(-[^/]*\)\=/[^/]*\.xml$')
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

function! bidi_lsp#line_count(bufnr) abort
  if a:bufnr == bufnr('%')
    return line('$')
  endif
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

function! bidi_lsp#buffers() abort
  return map(keys(s:buffers), 'str2nr(v:val)')
endfunction

" Whether buffer {bufnr}'s filetype is one of g:bidi_lsp_filetypes.
function! s:wanted(bufnr) abort
  let l:filetypes = get(g:, 'bidi_lsp_filetypes', [])
  return index(l:filetypes, '*') >= 0 || index(l:filetypes, getbufvar(a:bufnr, '&filetype')) >= 0
endfunction

function! bidi_lsp#on_filetype(bufnr) abort
  if has_key(s:buffers, a:bufnr)
    " A new filetype is a new languageId: reopen the document.
    call s:detach(a:bufnr, 1)
    call bidi_lsp#attach_later(a:bufnr)
  elseif s:wanted(a:bufnr)
    call bidi_lsp#attach_later(a:bufnr)
  endif
endfunction

" Attaches buffer {bufnr} from a timer: Vim draws the screen before it
" runs, so opening a file shows it without waiting for the plugin's work
" (reading the buffer, encoding the didOpen: 0.1-0.4 s at 100,000 lines)
" or the daemon's start. A command that needs the buffer attaches it at once.
function! bidi_lsp#attach_later(bufnr) abort
  if !has_key(s:pending, a:bufnr)
    let s:pending[a:bufnr] = timer_start(0, function('s:on_attach_timer', [a:bufnr]))
  endif
endfunction

" Whether buffer {bufnr} waits to be attached (see bidi_lsp#attach_later()).
function! bidi_lsp#attach_pending(bufnr) abort
  return has_key(s:pending, a:bufnr)
endfunction

function! s:on_attach_timer(bufnr, timer) abort
  if get(s:pending, a:bufnr, -1) == a:timer
    call remove(s:pending, a:bufnr)
    " (Its filetype may have changed to one not attached meanwhile.)
    if s:wanted(a:bufnr)
      call bidi_lsp#attach(a:bufnr)
    endif
  endif
endfunction

function! s:open(bufnr, state) abort
  let l:lines = getbufline(a:bufnr, 1, '$')
  let a:state.lines = len(l:lines)
  let l:text = join(l:lines, "\n") . "\n"
  " (One search of the joined text: match() over the List costs 0.3 s at
  " 100,000 lines.)
  let a:state.has_cr = stridx(l:text, "\r") >= 0 && s:has_inner_cr(l:lines)
  call bidi_lsp#rpc#notify('textDocument/didOpen', {'textDocument': {
        \ 'uri': a:state.uri, 'languageId': bidi_lsp#language_id(getbufvar(a:bufnr, '&filetype')),
        \ 'version': a:state.version, 'text': l:text}})
endfunction

" Opens the buffer in the daemon (starting it if needed) and keeps the
" daemon's copy in step. Returns whether the buffer is attached.
function! bidi_lsp#attach(bufnr) abort
  if has_key(s:pending, a:bufnr)
    call timer_stop(remove(s:pending, a:bufnr))
  endif
  if has_key(s:buffers, a:bufnr)
    return 1
  endif
  if !bufloaded(a:bufnr) || !bidi_lsp#start()
    return 0
  endif
  let l:state = {'uri': bidi_lsp#uri(a:bufnr), 'version': 1, 'reopening': 0}
  call s:open(a:bufnr, l:state)
  let l:state.listener = listener_add(function('s:on_lines'), a:bufnr)
  let s:buffers[a:bufnr] = l:state
  execute 'augroup bidi_lsp_buffer_' . a:bufnr
    autocmd!
    execute 'autocmd BufUnload <buffer=' . a:bufnr . '> call bidi_lsp#detach(' . a:bufnr . ')'
    execute 'autocmd BufReadPost <buffer=' . a:bufnr . '> call bidi_lsp#sync_full(' . a:bufnr . ')'
    execute 'autocmd BufFilePost <buffer=' . a:bufnr . '> call bidi_lsp#on_filetype(' . a:bufnr . ')'
  augroup END
  call bidi_lsp#view#attach(a:bufnr)
  return 1
endfunction

function! bidi_lsp#detach(bufnr) abort
  call s:detach(a:bufnr, 1)
endfunction

function! s:detach(bufnr, notify) abort
  if has_key(s:pending, a:bufnr)
    call timer_stop(remove(s:pending, a:bufnr))
  endif
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
  call bidi_lsp#view#detach(a:bufnr)
  if a:notify
    call bidi_lsp#rpc#notify('textDocument/didClose', {'textDocument': {'uri': l:state.uri}})
  endif
  call bidi_lsp#diagnostics#clear(l:state.uri)
  silent! call bidi_lsp#hints#clear(a:bufnr)
endfunction

" listener_add() callback, for the changes since the last call. The lines
" above the first change and the lines below the last one are unchanged;
" everything between is sent as one incremental didChange of whole lines.
" Vim gives each change's lnum/end in the numbering of its own moment, so
" the unchanged tail is counted from the end of the buffer, which changes
" above it do not move. While the daemon is down (or the buffer is being
" opened again) only the line count is kept: the next didOpen sends all.
function! s:on_lines(bufnr, start, end, added, changes) abort
  let l:state = get(s:buffers, a:bufnr, {})
  if empty(l:state)
    return
  endif
  let l:count = bidi_lsp#line_count(a:bufnr)
  if !bidi_lsp#rpc#running() || l:state.reopening
    let l:state.lines = l:count
    return
  endif
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
    call s:send_full(a:bufnr, l:state)
    return
  endif
  let l:last_new = l:count - l:tail
  let l:lines = l:last_new >= l:first ? getbufline(a:bufnr, l:first, l:last_new) : []
  if l:state.has_cr || s:has_inner_cr(l:lines)
    let l:state.has_cr = 1
    call s:send_full(a:bufnr, l:state)
    return
  endif
  let l:state.version += 1
  call bidi_lsp#rpc#notify('textDocument/didChange', {
        \ 'textDocument': {'uri': l:state.uri, 'version': l:state.version},
        \ 'contentChanges': [{
        \   'range': {'start': {'line': l:first - 1, 'character': 0},
        \             'end': {'line': l:state.lines - l:tail, 'character': 0}},
        \   'text': empty(l:lines) ? '' : join(l:lines, "\n") . "\n"}]})
  let l:state.lines = l:count
endfunction

function! s:send_full(bufnr, state) abort
  let a:state.lines = bidi_lsp#line_count(a:bufnr)
  let a:state.version += 1
  call bidi_lsp#rpc#notify('textDocument/didChange', {
        \ 'textDocument': {'uri': a:state.uri, 'version': a:state.version},
        \ 'contentChanges': [{'text': s:buffer_text(a:bufnr)}]})
endfunction

" Sends the whole text of the buffer (after a reload, or to recover).
function! bidi_lsp#sync_full(bufnr) abort
  let l:state = get(s:buffers, a:bufnr, {})
  if empty(l:state)
    return
  endif
  silent! call listener_flush(a:bufnr)
  call s:send_full(a:bufnr, l:state)
endfunction

" Makes sure the buffer is attached and the daemon (restarted if it died)
" has its latest text; returns its state. Throws when it cannot attach.
function! bidi_lsp#ensure(bufnr) abort
  if !bidi_lsp#rpc#running() && !empty(s:buffers)
    call bidi_lsp#rpc#start()
    call bidi_lsp#reopen_all()
  endif
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

" The bufnr attached under {uri}, or -1.
function! bidi_lsp#bufnr_of(uri) abort
  for [l:bufnr, l:state] in items(s:buffers)
    if l:state.uri ==# a:uri
      return str2nr(l:bufnr)
    endif
  endfor
  return -1
endfunction

" ------------------------------------------------- requests on the text --

" Params for the lines first .. last (1-based) of a buffer.
function! bidi_lsp#line_params(bufnr, first, last) abort
  let l:state = bidi_lsp#ensure(a:bufnr)
  return {'textDocument': {'uri': l:state.uri}, 'range': bidi_lsp#edit#lines_range(a:first, a:last)}
endfunction

" The paragraphs of lines first .. last: bidi/naturalDirection's answer.
function! bidi_lsp#direction(bufnr, first, last) abort
  return bidi_lsp#request('bidi/naturalDirection', bidi_lsp#line_params(a:bufnr, a:first, a:last)).paragraphs
endfunction

" The direction of most paragraphs of lines first .. last (default: the
" whole buffer) that have a strong character (the first of them on a tie),
" else ''.
function! bidi_lsp#document_direction(bufnr, ...) abort
  let l:first = a:0 ? a:1 : 1
  let l:last = a:0 > 1 ? a:2 : bidi_lsp#line_count(a:bufnr)
  return bidi_lsp#view#majority(bidi_lsp#direction(a:bufnr, l:first, l:last))
endfunction

" Sets 'rightleft' in window winid: from {direction} ('ltr' or 'rtl'), or
" from the lines it shows when {direction} is empty (the rule of
" g:bidi_lsp_auto_direction, see :help bidi-lsp-auto-direction).
function! bidi_lsp#set_direction(winid, direction) abort
  if empty(a:direction)
    return bidi_lsp#view#apply_direction(a:winid, 1)
  endif
  call setwinvar(a:winid, '&rightleft', a:direction ==# 'rtl')
  return a:direction
endfunction

" The visual order of lines first .. last: one string per paragraph, as the
" text displays left to right (for terminals that do not reorder).
function! bidi_lsp#visual_lines(bufnr, first, last) abort
  return map(bidi_lsp#visual#paragraphs(a:bufnr, a:first, a:last), 'v:val.text')
endfunction

" Hover text for a line: its direction, alignment and visual order.
function! bidi_lsp#info(bufnr, lnum) abort
  let l:state = bidi_lsp#ensure(a:bufnr)
  let l:answer = bidi_lsp#request('textDocument/hover', {'textDocument': {'uri': l:state.uri},
        \ 'position': {'line': a:lnum - 1, 'character': 0}})
  return type(l:answer) == v:t_dict ? l:answer.contents.value : ''
endfunction

" Asks bidi/insertMarks for {mode} with {options} over {range} (an LSP
" Range, or a List of them, on different lines) and applies the edits to the
" buffer as one change. Returns the edits applied.
function! bidi_lsp#insert_marks(bufnr, mode, options, range) abort
  let l:state = bidi_lsp#ensure(a:bufnr)
  let l:edits = []
  for l:range in type(a:range) == v:t_list ? a:range : [a:range]
    let l:params = extend({'textDocument': {'uri': l:state.uri}, 'mode': a:mode, 'range': l:range},
          \ a:options, 'keep')
    for l:edit in bidi_lsp#request('bidi/insertMarks', l:params).edits
      if index(l:edits, l:edit) < 0
        call add(l:edits, l:edit)
      endif
    endfor
  endfor
  call bidi_lsp#edit#apply(a:bufnr, l:edits)
  return l:edits
endfunction

" Applies the preferred quick fix of every hazard that {range} (default: line
" {lnum}) touches, or with {all} the first fix-all action of the file.
" Returns the titles of the actions applied.
function! bidi_lsp#fix(bufnr, lnum, all, ...) abort
  return bidi_lsp#commands#fix(a:bufnr, a:0 ? a:1 : bidi_lsp#edit#lines_range(a:lnum, a:lnum), a:all)
endfunction

let &cpoptions = s:save_cpo
unlet s:save_cpo
