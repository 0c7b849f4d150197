" bidi-lsp: the user commands (plugin/bidi_lsp.vim defines them).

let s:save_cpo = &cpoptions
set cpoptions&vim

function! s:error(text) abort
  echohl ErrorMsg
  echomsg 'bidi-lsp: ' . a:text
  echohl None
endfunction

" ---------------------------------------------------------------- status --

function! bidi_lsp#commands#status() abort
  let l:server = bidi_lsp#rpc#server()
  let l:restarts = bidi_lsp#rpc#restarts()
  if bidi_lsp#rpc#running()
    let l:text = printf('bidi-lsp %s running (%s), positions %s, %d buffer(s) attached',
          \ get(l:server.server_info, 'version', '?'), job_info(l:server.job).process,
          \ l:server.encoding, len(bidi_lsp#buffers()))
  else
    let l:text = 'bidi-lsp is not running' . (l:restarts.pending ? ' (a restart is scheduled)' : '')
  endif
  if l:restarts.total > 0
    let l:text .= printf(', restarted %d time(s)', l:restarts.total)
  endif
  let l:lines = [l:text]
  for l:line in bidi_lsp#rpc#messages(10)
    call add(l:lines, '  ' . l:line)
  endfor
  echo join(l:lines, "\n")
endfunction

" ------------------------------------------------------------ directions --

function! bidi_lsp#commands#direction(first, last) abort
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

function! bidi_lsp#commands#set_direction(direction) abort
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

function! bidi_lsp#commands#complete_direction(arglead, cmdline, cursorpos) abort
  return filter(['ltr', 'rtl'], 'v:val =~# "^" . a:arglead')
endfunction

" ------------------------------------------------------- visual and info --

function! bidi_lsp#commands#visual(first, last) abort
  try
    call bidi_lsp#visual#show(bufnr('%'), a:first, a:last)
  catch /^bidi-lsp:/
    call s:error(v:exception[10:])
  endtry
endfunction

function! bidi_lsp#commands#info(lnum) abort
  try
    echo bidi_lsp#info(bufnr('%'), a:lnum)
  catch /^bidi-lsp:/
    call s:error(v:exception[10:])
  endtry
endfunction

" ---------------------------------------------------------------- ranges --

" Whether a command given {count}, {first}, {last} runs on the last Visual
" selection: typed as ":'<,'>..." (plugin/bidi_lsp.vim keeps the command
" line last typed), else, run from a script or a mapping, when its lines are
" those of the selection.
function! s:from_visual(count, first, last) abort
  let l:typed = get(g:, 'bidi_lsp_last_cmdline', '')
  let g:bidi_lsp_last_cmdline = ''
  if s:force_visual
    return 1
  endif
  if l:typed =~# 'Bidi'
    return l:typed =~# '^[: \t]*''<\s*,\s*''>'
  endif
  return a:count > 0 && a:first == line("'<") && a:last == line("'>")
endfunction

let s:force_visual = 0

" The LSP Ranges a command acts on. {count} is <range> (0: no range given):
" - the last Visual selection (see s:from_visual()): characterwise, the
"   selection; blockwise, one range per line; linewise, its lines;
" - no range: the cursor in a structured document (localization, Markdown,
"   subtitles: the daemon takes the values, blocks or cue lines the cursor
"   touches), else the cursor's line;
" - otherwise the whole lines of the range.
function! bidi_lsp#commands#ranges(count, first, last) abort
  let l:mode = visualmode()
  if s:from_visual(a:count, a:first, a:last)
    if l:mode ==# 'v'
      return [bidi_lsp#edit#selection_range()]
    elseif l:mode ==# "\<C-v>"
      return bidi_lsp#edit#block_ranges()
    endif
  endif
  if a:count == 0
    if bidi_lsp#is_structured(bufnr('%'))
      return [bidi_lsp#edit#cursor_range()]
    endif
    return [bidi_lsp#edit#lines_range(line('.'), line('.'))]
  endif
  return [bidi_lsp#edit#lines_range(a:first, a:last)]
endfunction

" ------------------------------------------------------------ insertMarks --

" The second argument of :BidiInsertMarks, per mode.
let s:mode_argument = {'direction': 'direction', 'isolate': 'isolate',
      \ 'placeholders': 'style', 'strip': 'only', 'runs': ''}
let s:mode_values = {'direction': ['ltr', 'rtl'], 'isolate': ['auto', 'ltr', 'rtl'],
      \ 'placeholders': ['isolate', 'marks'], 'strip': ['all', 'unpaired'], 'runs': []}

function! bidi_lsp#commands#complete_modes(arglead, cmdline, cursorpos) abort
  let l:words = split(a:cmdline[: a:cursorpos - 1], '\s\+', 1)
  let l:mode = len(l:words) > 2 ? l:words[1] : ''
  let l:choices = empty(l:mode) ? sort(keys(s:mode_argument)) : get(s:mode_values, l:mode, [])
  return filter(copy(l:choices), 'v:val =~# "^" . a:arglead')
endfunction

function! s:report(mode, edits) abort
  if empty(a:edits)
    echo 'bidi-lsp: ' . a:mode . ': nothing to change'
  else
    echo printf('bidi-lsp: %s: %d edit%s', a:mode, len(a:edits), len(a:edits) == 1 ? '' : 's')
  endif
endfunction

function! bidi_lsp#commands#insert_marks(count, first, last, mode, ...) abort
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
  let l:ranges = bidi_lsp#commands#ranges(a:count, a:first, a:last)
  if a:mode ==# 'isolate'
    if a:count == 0 && !bidi_lsp#is_structured(bufnr('%'))
      call s:error('isolate needs a selection (use it from Visual mode)')
      return
    endif
    " Whole lines: isolate the text of each, within its line.
    let l:ranges = s:within_lines(l:ranges)
  endif
  try
    call s:report(a:mode, bidi_lsp#insert_marks(bufnr('%'), a:mode, l:options, l:ranges))
  catch /^bidi-lsp:/
    call s:error(v:exception[10:])
  endtry
endfunction

function! s:within_lines(ranges) abort
  let l:result = []
  for l:range in a:ranges
    if l:range.end.character == 0 && l:range.end.line > l:range.start.line
      for l:line in range(l:range.start.line, l:range.end.line - 1)
        call add(l:result, {'start': {'line': l:line, 'character': 0},
              \ 'end': {'line': l:line, 'character': len(getline(l:line + 1))}})
      endfor
    else
      call add(l:result, l:range)
    endif
  endfor
  return l:result
endfunction

" :BidiStrip: the whole buffer without a range.
function! bidi_lsp#commands#strip(count, first, last, all) abort
  let l:only = a:all ? 'all' : 'unpaired'
  if a:count == 0
    try
      call s:report('strip', bidi_lsp#insert_marks(bufnr('%'), 'strip', {'only': l:only},
            \ [bidi_lsp#edit#lines_range(1, line('$'))]))
    catch /^bidi-lsp:/
      call s:error(v:exception[10:])
    endtry
    return
  endif
  call bidi_lsp#commands#insert_marks(a:count, a:first, a:last, 'strip', l:only)
endfunction

" The Visual-mode mappings: the selection as it is.
function! bidi_lsp#commands#visual_insert_marks(mode) abort
  let s:force_visual = 1
  try
    call bidi_lsp#commands#insert_marks(2, line("'<"), line("'>"), a:mode)
  finally
    let s:force_visual = 0
  endtry
endfunction

" ----------------------------------------------------------- code actions --

" The quick fixes of the hazards {range} touches, with the same fix offered
" once however many diagnostics of a control it answers.
function! bidi_lsp#commands#quick_fixes(bufnr, range) abort
  let l:state = bidi_lsp#ensure(a:bufnr)
  let [l:first, l:last] = [a:range.start.line, a:range.end.line]
  let l:diagnostics = filter(copy(bidi_lsp#diagnostics#get(l:state.uri)),
        \ 'v:val.range.end.line >= l:first && v:val.range.start.line <= l:last')
  let l:actions = bidi_lsp#request('textDocument/codeAction', {'textDocument': {'uri': l:state.uri},
        \ 'range': a:range, 'context': {'diagnostics': l:diagnostics, 'only': ['quickfix']}})
  let l:unique = []
  let l:edits = []
  for l:action in type(l:actions) == v:t_list ? l:actions : []
    let l:edit = get(l:action, 'edit', {})
    let l:index = index(l:edits, l:edit)
    if l:index < 0
      call add(l:edits, l:edit)
      call add(l:unique, l:action)
    elseif get(l:action, 'isPreferred', v:false)
      let l:unique[l:index].isPreferred = v:true
    endif
  endfor
  return l:unique
endfunction

function! s:hazard_key(action) abort
  let l:diagnostics = get(a:action, 'diagnostics', [])
  return empty(l:diagnostics) ? a:action.title : string(l:diagnostics[0].range)
endfunction

function! s:edits_of(action) abort
  let l:edits = []
  for l:list in values(get(get(a:action, 'edit', {}), 'changes', {}))
    call extend(l:edits, l:list)
  endfor
  return l:edits
endfunction

function! s:overlaps(a, b) abort
  let l:a_start = [a:a.range.start.line, a:a.range.start.character]
  let l:a_end = [a:a.range.end.line, a:a.range.end.character]
  let l:b_start = [a:b.range.start.line, a:b.range.start.character]
  let l:b_end = [a:b.range.end.line, a:b.range.end.character]
  return s:before(l:a_start, l:b_end) && s:before(l:b_start, l:a_end)
endfunction

function! s:any_overlap(edits, others) abort
  for l:edit in a:edits
    for l:other in a:others
      if s:overlaps(l:edit, l:other)
        return 1
      endif
    endfor
  endfor
  return 0
endfunction

function! s:before(a, b) abort
  return a:a[0] < a:b[0] || (a:a[0] == a:b[0] && a:a[1] < a:b[1])
endfunction

" Applies, as one change, the preferred fix of each hazard {range} touches
" (the first preferred one of each control; a fix whose edits overlap one
" already chosen is left for the next time), or with {all} the first
" fix-all action of the file. Returns the titles applied.
function! bidi_lsp#commands#fix(bufnr, range, all) abort
  if a:all
    let l:state = bidi_lsp#ensure(a:bufnr)
    let l:actions = bidi_lsp#request('textDocument/codeAction', {'textDocument': {'uri': l:state.uri},
          \ 'range': bidi_lsp#edit#lines_range(1, bidi_lsp#line_count(a:bufnr)),
          \ 'context': {'diagnostics': bidi_lsp#diagnostics#get(l:state.uri), 'only': ['source.fixAll']}})
    if empty(l:actions)
      return []
    endif
    call bidi_lsp#edit#apply_workspace_edit(get(l:actions[0], 'edit', {}))
    return [l:actions[0].title]
  endif
  let l:chosen = {}
  let l:order = []
  let l:edits = []
  for l:action in bidi_lsp#commands#quick_fixes(a:bufnr, a:range)
    let l:key = s:hazard_key(l:action)
    if has_key(l:chosen, l:key) || !get(l:action, 'isPreferred', v:false)
      continue
    endif
    let l:new = s:edits_of(l:action)
    if s:any_overlap(l:new, l:edits)
      continue
    endif
    let l:chosen[l:key] = l:action
    call add(l:order, l:action.title)
    call extend(l:edits, l:new)
  endfor
  call bidi_lsp#edit#apply(a:bufnr, l:edits)
  return l:order
endfunction

" The range :BidiFix acts on: the selection or the cursor in a structured
" document, else the cursor's line (or the lines of the range).
function! s:fix_range(count, first, last) abort
  let l:ranges = bidi_lsp#commands#ranges(a:count, a:first, a:last)
  if len(l:ranges) == 1
    return l:ranges[0]
  endif
  return {'start': l:ranges[0].start, 'end': l:ranges[-1].end}
endfunction

function! bidi_lsp#commands#cmd_fix(count, first, last, all) abort
  try
    let l:titles = bidi_lsp#commands#fix(bufnr('%'), s:fix_range(a:count, a:first, a:last), a:all)
    echo empty(l:titles) ? 'bidi-lsp: nothing to fix' . (a:all ? '' : ' here')
          \ : 'bidi-lsp: ' . join(l:titles, '; ')
  catch /^bidi-lsp:/
    call s:error(v:exception[10:])
  endtry
endfunction

" :BidiFixes: choose one of the quick fixes here.
function! bidi_lsp#commands#cmd_fixes(count, first, last) abort
  try
    let l:actions = bidi_lsp#commands#quick_fixes(bufnr('%'), s:fix_range(a:count, a:first, a:last))
    if empty(l:actions)
      echo 'bidi-lsp: nothing to fix here'
      return
    endif
    let l:choices = ['Quick fixes:']
    for l:i in range(len(l:actions))
      call add(l:choices, printf('%d. %s%s', l:i + 1, l:actions[l:i].title,
            \ get(l:actions[l:i], 'isPreferred', v:false) ? ' (preferred)' : ''))
    endfor
    let l:choice = inputlist(l:choices)
    if l:choice >= 1 && l:choice <= len(l:actions)
      call bidi_lsp#edit#apply_workspace_edit(get(l:actions[l:choice - 1], 'edit', {}))
    endif
  catch /^bidi-lsp:/
    call s:error(v:exception[10:])
  endtry
endfunction

function! bidi_lsp#commands#diagnostics() abort
  try
    call bidi_lsp#ensure(bufnr('%'))
  catch /^bidi-lsp:/
    call s:error(v:exception[10:])
    return
  endtry
  call bidi_lsp#diagnostics#fill_loclist(win_getid(), 1)
  lopen
endfunction

let &cpoptions = s:save_cpo
unlet s:save_cpo
