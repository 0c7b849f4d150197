" bidi-lsp: LSP ranges and TextEdits in Vim buffers.
"
" Position conversion: the daemon speaks utf-8 positions with this plugin,
" so an LSP Position {line, character} is Vim line `line + 1` and byte
" column `character + 1` (col() counts bytes from 1). The daemon's copy of a
" buffer ends with a newline after the last line, so LSP line `line('$')`
" exists there and is empty: a range of whole lines may end on it.

let s:save_cpo = &cpoptions
set cpoptions&vim

" The LSP Range of the whole lines first .. last (1-based, inclusive).
function! bidi_lsp#edit#lines_range(first, last) abort
  return {'start': {'line': a:first - 1, 'character': 0}, 'end': {'line': a:last, 'character': 0}}
endfunction

" The LSP Range of the last characterwise Visual selection of the current
" buffer (the end is exclusive: past the last selected character).
function! bidi_lsp#edit#selection_range() abort
  let [l:start_line, l:start_col] = getpos("'<")[1:2]
  let [l:end_line, l:end_col] = getpos("'>")[1:2]
  let l:end_text = getline(l:end_line)
  " '> is on the first byte of the last character (or past the end, with $).
  let l:end = min([l:end_col - 1, len(l:end_text)])
  let l:end += len(matchstr(l:end_text, '.', l:end))
  return {'start': {'line': l:start_line - 1, 'character': l:start_col - 1},
        \ 'end': {'line': l:end_line - 1, 'character': l:end}}
endfunction

" The empty LSP Range at the cursor.
function! bidi_lsp#edit#cursor_range() abort
  let l:position = {'line': line('.') - 1, 'character': col('.') - 1}
  return {'start': l:position, 'end': copy(l:position)}
endfunction

" The byte offset in line {lnum} of the first character that ends at or
" after virtual column {vcol} (as virtcol() counts, virtual text included),
" or the line's length past its end.
function! s:byte_at_vcol(lnum, vcol) abort
  let l:text = getline(a:lnum)
  let l:offset = 0
  while l:offset < len(l:text)
    if virtcol([a:lnum, l:offset + 1]) >= a:vcol
      return l:offset
    endif
    let l:offset += len(matchstr(l:text, '.', l:offset))
  endwhile
  return l:offset
endfunction

" The first and last virtual columns of the character at byte column {col}
" (1-based) of line {lnum}.
function! s:vcols(lnum, col) abort
  let l:text = getline(a:lnum)
  if a:col > len(l:text)
    return [virtcol([a:lnum, '$']), v:maxcol]
  endif
  let l:last = virtcol([a:lnum, a:col])
  let l:char = matchstr(l:text, '.', a:col - 1)
  return [l:last - strdisplaywidth(l:char, l:last - 1) + 1, l:last]
endfunction

" One LSP Range per line of the last blockwise Visual selection.
function! bidi_lsp#edit#block_ranges() abort
  let [l:first_line, l:first_col] = getpos("'<")[1:2]
  let [l:last_line, l:last_col] = getpos("'>")[1:2]
  let l:a = s:vcols(l:first_line, l:first_col)
  let l:b = s:vcols(l:last_line, l:last_col)
  let l:left = min([l:a[0], l:b[0]])
  let l:right = max([l:a[1], l:b[1]])
  let l:ranges = []
  for l:lnum in range(min([l:first_line, l:last_line]), max([l:first_line, l:last_line]))
    let l:text = getline(l:lnum)
    let l:start = s:byte_at_vcol(l:lnum, l:left)
    let l:end = s:byte_at_vcol(l:lnum, l:right)
    let l:end += len(matchstr(l:text, '.', l:end))
    call add(l:ranges, {'start': {'line': l:lnum - 1, 'character': l:start},
          \ 'end': {'line': l:lnum - 1, 'character': l:end}})
  endfor
  return l:ranges
endfunction

function! s:compare(a, b) abort
  let l:a = a:a.range.start
  let l:b = a:b.range.start
  return l:a.line != l:b.line ? l:a.line - l:b.line : l:a.character - l:b.character
endfunction

" Applies LSP TextEdits (non-overlapping, against the buffer's current text)
" to buffer {bufnr}, from the last to the first, so that each edit's
" positions stay valid. All edits form one undo step.
function! bidi_lsp#edit#apply(bufnr, edits) abort
  if empty(a:edits)
    return
  endif
  if !getbufvar(a:bufnr, '&modifiable')
    throw 'bidi-lsp: the buffer is not modifiable'
  endif
  for l:edit in reverse(sort(copy(a:edits), function('s:compare')))
    call s:apply_one(a:bufnr, l:edit)
  endfor
endfunction

function! s:apply_one(bufnr, edit) abort
  let l:count = len(getbufline(a:bufnr, 1, '$'))
  let l:first = a:edit.range.start.line + 1
  let l:last = a:edit.range.end.line + 1
  " Lines past the buffer's end are the daemon's final empty line.
  let l:old = getbufline(a:bufnr, l:first, min([l:last, l:count]))
  while len(l:old) < l:last - l:first + 1
    call add(l:old, '')
  endwhile
  let l:prefix = strpart(l:old[0], 0, a:edit.range.start.character)
  let l:suffix = strpart(l:old[-1], a:edit.range.end.character)
  let l:new = split(l:prefix . a:edit.newText . l:suffix, "\n", 1)
  if l:last > l:count
    " The edit reached the final empty line: keep it virtual when it stays empty.
    let l:last = l:count
    if len(l:new) > 1 && l:new[-1] ==# ''
      call remove(l:new, -1)
    endif
  endif
  let l:replaced = l:last - l:first + 1
  let l:common = min([l:replaced, len(l:new)])
  " Only rewrite the lines that change, to keep marks and signs elsewhere.
  for l:i in range(l:common)
    if get(getbufline(a:bufnr, l:first + l:i), 0, '') !=# l:new[l:i]
      call setbufline(a:bufnr, l:first + l:i, l:new[l:i])
    endif
  endfor
  if len(l:new) > l:replaced
    call appendbufline(a:bufnr, l:first + l:common - 1, l:new[l:common :])
  elseif l:replaced > len(l:new)
    call deletebufline(a:bufnr, l:first + l:common, l:last)
  endif
endfunction

" Applies a WorkspaceEdit ({changes} or {documentChanges}) to the attached
" buffers it names; edits for other URIs are reported, not applied.
function! bidi_lsp#edit#apply_workspace_edit(edit) abort
  let l:changes = copy(get(a:edit, 'changes', {}))
  for l:change in get(a:edit, 'documentChanges', [])
    if has_key(l:change, 'textDocument')
      let l:changes[l:change.textDocument.uri] = get(l:changes, l:change.textDocument.uri, []) + l:change.edits
    endif
  endfor
  for [l:uri, l:edits] in items(l:changes)
    let l:bufnr = bidi_lsp#bufnr_of(l:uri)
    if l:bufnr < 0
      throw 'bidi-lsp: an edit for a buffer that is not open: ' . l:uri
    endif
    call bidi_lsp#edit#apply(l:bufnr, l:edits)
  endfor
endfunction

let &cpoptions = s:save_cpo
unlet s:save_cpo
