" bidi-lsp: what the plugin asks by itself, only for the lines the user can
" see. When a buffer is shown, scrolled or edited, one refresh is scheduled
" (debounced after edits); it asks for the inlay hints of the visible lines
" plus a margin, and, with auto direction, for the visual order of the
" visible lines. A refresh for a buffer cancels the one still in flight, and
" an answer for an older version of the buffer is dropped.

let s:save_cpo = &cpoptions
set cpoptions&vim

" The largest range the plugin asks for by itself, in lines.
let s:max_lines = 1000
" bufnr -> timer id of the scheduled refresh.
let s:timers = {}
" bufnr -> {hints: [ids], direction: [ids]}: the requests in flight.
let s:inflight = {}

function! s:margin() abort
  return get(g:, 'bidi_lsp_margin', 50)
endfunction

" The windows of the current tab page that show buffer {bufnr}.
function! s:windows(bufnr) abort
  let l:tab = tabpagenr()
  return filter(win_findbuf(a:bufnr), 'win_id2tabwin(v:val)[0] == l:tab')
endfunction

" The 1-based line span [first, last] window {winid} shows, grown by
" {margin} lines each way and clamped to the buffer and to s:max_lines.
function! bidi_lsp#view#window_lines(winid, margin) abort
  let l:count = bidi_lsp#line_count(winbufnr(a:winid))
  let l:top = line('w0', a:winid)
  let l:bottom = line('w$', a:winid)
  if l:top <= 0
    let l:top = 1
    let l:bottom = min([l:count, 50])
  endif
  let l:first = max([1, l:top - a:margin])
  let l:last = min([l:count, l:bottom + a:margin, l:first + s:max_lines - 1])
  return [l:first, max([l:first, l:last])]
endfunction

" The spans of buffer {bufnr} visible in the current tab page (with the
" margin), merged where they overlap; none when it is not shown.
function! bidi_lsp#view#visible_spans(bufnr) abort
  let l:spans = sort(map(s:windows(a:bufnr), 'bidi_lsp#view#window_lines(v:val, s:margin())'),
        \ {a, b -> a[0] - b[0]})
  let l:merged = []
  for l:span in l:spans
    if !empty(l:merged) && l:span[0] <= l:merged[-1][1] + 1
          \ && max([l:span[1], l:merged[-1][1]]) - l:merged[-1][0] < s:max_lines
      let l:merged[-1][1] = max([l:span[1], l:merged[-1][1]])
    else
      call add(l:merged, l:span)
    endif
  endfor
  return l:merged
endfunction

" -------------------------------------------------------------- schedule --

function! bidi_lsp#view#attach(bufnr) abort
  execute 'augroup bidi_lsp_view_' . a:bufnr
    autocmd!
    execute 'autocmd BufWinEnter <buffer=' . a:bufnr . '> call bidi_lsp#view#schedule(' . a:bufnr . ', 0)'
    execute 'autocmd TextChanged,TextChangedI <buffer=' . a:bufnr . '> call bidi_lsp#view#schedule('
          \ . a:bufnr . ', get(g:, "bidi_lsp_debounce", 150))'
    execute 'autocmd InsertLeave <buffer=' . a:bufnr . '> call bidi_lsp#view#schedule(' . a:bufnr . ', 0)'
  augroup END
  call bidi_lsp#view#schedule(a:bufnr, 0)
endfunction

function! bidi_lsp#view#detach(bufnr) abort
  call s:stop_timer(a:bufnr)
  call s:cancel(a:bufnr)
  if exists('#bidi_lsp_view_' . a:bufnr)
    execute 'augroup bidi_lsp_view_' . a:bufnr
      autocmd!
    augroup END
    execute 'augroup! bidi_lsp_view_' . a:bufnr
  endif
endfunction

" After the window {winid} scrolled or was resized.
function! bidi_lsp#view#on_scroll(winid) abort
  let l:bufnr = winbufnr(a:winid)
  if l:bufnr > 0 && !empty(bidi_lsp#buffer(l:bufnr))
    call bidi_lsp#view#schedule(l:bufnr, get(g:, 'bidi_lsp_scroll_delay', 50))
  endif
endfunction

function! s:stop_timer(bufnr) abort
  if has_key(s:timers, a:bufnr)
    call timer_stop(remove(s:timers, a:bufnr))
  endif
endfunction

" Schedules one refresh of buffer {bufnr} in {delay} ms; a refresh already
" scheduled is replaced (debouncing).
function! bidi_lsp#view#schedule(bufnr, delay) abort
  call s:stop_timer(a:bufnr)
  let s:timers[a:bufnr] = timer_start(a:delay, function('s:on_timer', [a:bufnr]))
endfunction

function! s:on_timer(bufnr, timer) abort
  if get(s:timers, a:bufnr, -1) == a:timer
    call remove(s:timers, a:bufnr)
  endif
  try
    call bidi_lsp#view#refresh(a:bufnr)
  catch /^bidi-lsp:/
    call bidi_lsp#rpc#log(v:exception)
  endtry
endfunction

" Whether a refresh of {bufnr} is scheduled or in flight.
function! bidi_lsp#view#busy(bufnr) abort
  let l:inflight = get(s:inflight, a:bufnr, {})
  return has_key(s:timers, a:bufnr) || !empty(get(l:inflight, 'hints', []))
        \ || !empty(get(l:inflight, 'direction', []))
endfunction

function! s:cancel(bufnr, ...) abort
  let l:inflight = get(s:inflight, a:bufnr, {})
  for l:kind in a:0 ? [a:1] : keys(l:inflight)
    for l:id in get(l:inflight, l:kind, [])
      call bidi_lsp#rpc#cancel(l:id)
    endfor
    let l:inflight[l:kind] = []
  endfor
endfunction

" The daemon died: its requests will never be answered.
function! bidi_lsp#view#forget_requests() abort
  let s:inflight = {}
endfunction

function! s:track(bufnr, kind, id) abort
  if a:id > 0
    let l:inflight = get(s:inflight, a:bufnr, {})
    let s:inflight[a:bufnr] = l:inflight
    if !has_key(l:inflight, a:kind)
      let l:inflight[a:kind] = []
    endif
    call add(l:inflight[a:kind], a:id)
  endif
endfunction

function! s:done(bufnr, kind, id) abort
  let l:ids = get(get(s:inflight, a:bufnr, {}), a:kind, [])
  let l:index = index(l:ids, a:id)
  if l:index >= 0
    call remove(l:ids, l:index)
  endif
endfunction

" --------------------------------------------------------------- refresh --

" Asks for what buffer {bufnr} shows now: the hints of its visible spans,
" and its windows' directions when g:bidi_lsp_auto_direction is on.
function! bidi_lsp#view#refresh(bufnr) abort
  let l:state = bidi_lsp#buffer(a:bufnr)
  if empty(l:state) || !bidi_lsp#rpc#running() || !bufloaded(a:bufnr)
    return
  endif
  call listener_flush(a:bufnr)
  if bidi_lsp#hints#enabled(a:bufnr)
    call s:cancel(a:bufnr, 'hints')
    for l:span in bidi_lsp#view#visible_spans(a:bufnr)
      call s:request(a:bufnr, 'hints', 'textDocument/inlayHint',
            \ {'textDocument': {'uri': l:state.uri}, 'range': bidi_lsp#edit#lines_range(l:span[0], l:span[1])},
            \ function('bidi_lsp#hints#show', [a:bufnr, l:span]))
    endfor
  endif
  let l:mode = s:auto_mode()
  if !empty(l:mode)
    call s:cancel(a:bufnr, 'direction')
    for l:winid in s:windows(a:bufnr)
      let [l:first, l:last] = bidi_lsp#view#window_lines(l:winid, 0)
      let [l:method, l:params] = s:direction_request(l:mode, l:state.uri, l:first, l:last)
      call s:request(a:bufnr, 'direction', l:method, l:params,
            \ function('s:apply_auto_direction', [l:winid, l:mode]))
    endfor
  endif
endfunction

" Sends an async request whose Callback(result) runs only if the buffer has
" not changed since.
function! s:request(bufnr, kind, method, params, Callback) abort
  let l:version = bidi_lsp#buffer(a:bufnr).version
  let l:box = {}
  let l:box.id = bidi_lsp#rpc#request_async(a:method, a:params,
        \ function('s:on_answer', [a:bufnr, a:kind, l:version, l:box, a:Callback]))
  call s:track(a:bufnr, a:kind, l:box.id)
endfunction

function! s:on_answer(bufnr, kind, version, box, Callback, result) abort
  let l:cancelled = index(get(get(s:inflight, a:bufnr, {}), a:kind, []), get(a:box, 'id', -1)) < 0
  call s:done(a:bufnr, a:kind, get(a:box, 'id', -1))
  let l:state = bidi_lsp#buffer(a:bufnr)
  if l:cancelled || empty(l:state) || l:state.version != a:version
    return
  endif
  call a:Callback(a:result)
endfunction

" ------------------------------------------------------------- direction --

" The auto-direction rule in force: '', 'lines' or 'majority'.
function! s:auto_mode() abort
  let l:value = get(g:, 'bidi_lsp_auto_direction', 0)
  if type(l:value) == v:t_string
    return index(['lines', 'majority'], l:value) >= 0 ? l:value : ''
  endif
  return l:value ? 'lines' : ''
endfunction

function! s:direction_request(mode, uri, first, last) abort
  let l:params = {'textDocument': {'uri': a:uri}, 'range': bidi_lsp#edit#lines_range(a:first, a:last)}
  if a:mode ==# 'majority'
    return ['bidi/naturalDirection', l:params]
  endif
  let l:params.include = ['runs']
  return ['bidi/visualOrder', l:params]
endfunction

" The 'rightleft' the rule {mode} gives for an answer, or '' to leave the
" window as it is.
"   lines: 'rightleft' only when it shows every line right: every visible
"   line is empty or displays wholly right to left (all its runs at level 1,
"   so reversing it character by character is its visual order), and some
"   line has text. Otherwise 'norightleft', which never mirrors a Latin word
"   or a number (see :help bidi-lsp-auto-direction).
"   majority: the direction of most lines with a strong character.
function! bidi_lsp#view#direction_of(mode, result) abort
  if a:mode ==# 'majority'
    return bidi_lsp#view#majority(a:result.paragraphs)
  endif
  let l:text = 0
  for l:paragraph in a:result.paragraphs
    for l:line in l:paragraph.lines
      for l:run in get(l:line, 'runs', [])
        if l:run.level != 1
          return 'ltr'
        endif
        let l:text = 1
      endfor
    endfor
  endfor
  return l:text ? 'rtl' : 'ltr'
endfunction

" The direction of most paragraphs with a strong character (the first of
" them on a tie), else ''.
function! bidi_lsp#view#majority(paragraphs) abort
  let l:count = {'ltr': 0, 'rtl': 0}
  let l:first = ''
  for l:paragraph in a:paragraphs
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

function! s:apply_auto_direction(winid, mode, result) abort
  call s:set_rightleft(a:winid, bidi_lsp#view#direction_of(a:mode, a:result))
endfunction

function! s:set_rightleft(winid, direction) abort
  if empty(a:direction) || win_id2win(a:winid) == 0
    return
  endif
  let l:rightleft = a:direction ==# 'rtl'
  if getwinvar(a:winid, '&rightleft') != l:rightleft
    call setwinvar(a:winid, '&rightleft', l:rightleft)
    call bidi_lsp#hints#orient(winbufnr(a:winid))
  endif
endfunction

" Sets window {winid}'s 'rightleft' now from the lines it shows, with the
" auto-direction rule in force ('lines' when it is off). Returns the
" direction set, or ''.
function! bidi_lsp#view#apply_direction(winid, ...) abort
  let l:mode = s:auto_mode()
  let l:mode = empty(l:mode) ? 'lines' : l:mode
  let l:bufnr = winbufnr(a:winid)
  let l:state = bidi_lsp#ensure(l:bufnr)
  let [l:first, l:last] = bidi_lsp#view#window_lines(a:winid, 0)
  let [l:method, l:params] = s:direction_request(l:mode, l:state.uri, l:first, l:last)
  let l:direction = bidi_lsp#view#direction_of(l:mode, bidi_lsp#request(l:method, l:params))
  call s:set_rightleft(a:winid, l:direction)
  return l:direction
endfunction

let &cpoptions = s:save_cpo
unlet s:save_cpo
