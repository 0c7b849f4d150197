-- bidi-lsp: LSP ranges of selections, and edits applied to buffers.
-- Positions are utf-8: an LSP `character` is a byte offset, as Neovim's
-- columns are (0-based in the API, 1-based in getpos()).
local M = {}

local api = vim.api

function M.lines_range(first, last)
  return require('bidi_lsp.view').lines_range(first, last)
end

-- The empty range at the cursor of the current window.
function M.cursor_range()
  local cursor = api.nvim_win_get_cursor(0)
  local position = { line = cursor[1] - 1, character = cursor[2] }
  return { start = position, ['end'] = vim.deepcopy(position) }
end

local function char_end(text, byte)
  local char = vim.fn.matchstr(text, '.', byte)
  return byte + #char
end

-- The range of the last characterwise Visual selection (end exclusive).
function M.selection_range()
  local start = vim.fn.getpos("'<")
  local finish = vim.fn.getpos("'>")
  local text = vim.fn.getline(finish[2])
  local last = math.min(finish[3] - 1, #text)
  return {
    start = { line = start[2] - 1, character = start[3] - 1 },
    ['end'] = { line = finish[2] - 1, character = char_end(text, last) },
  }
end

-- The first and last virtual columns of the character at byte column {col}
-- (1-based) of line {lnum} (virtual text included, as virtcol() counts).
local function vcols(lnum, col)
  local text = vim.fn.getline(lnum)
  if col > #text then
    return { vim.fn.virtcol({ lnum, '$' }), math.huge }
  end
  local last = vim.fn.virtcol({ lnum, col })
  local char = vim.fn.matchstr(text, '.', col - 1)
  return { last - vim.fn.strdisplaywidth(char, last - 1) + 1, last }
end

-- The byte offset in line {lnum} of the first character that ends at or
-- after virtual column {vcol}.
local function byte_at_vcol(lnum, vcol)
  local text = vim.fn.getline(lnum)
  local offset = 0
  while offset < #text do
    if vim.fn.virtcol({ lnum, offset + 1 }) >= vcol then
      return offset
    end
    offset = char_end(text, offset)
  end
  return offset
end

-- One range per line of the last blockwise Visual selection.
function M.block_ranges()
  local start = vim.fn.getpos("'<")
  local finish = vim.fn.getpos("'>")
  local a, b = vcols(start[2], start[3]), vcols(finish[2], finish[3])
  local left, right = math.min(a[1], b[1]), math.max(a[2], b[2])
  local ranges = {}
  for lnum = math.min(start[2], finish[2]), math.max(start[2], finish[2]) do
    local text = vim.fn.getline(lnum)
    local first = byte_at_vcol(lnum, left)
    local last = right == math.huge and #text or char_end(text, byte_at_vcol(lnum, right))
    table.insert(ranges, { start = { line = lnum - 1, character = first }, ['end'] = { line = lnum - 1, character = last } })
  end
  return ranges
end

-- Applies TextEdits to buffer {bufnr} as one change.
function M.apply(bufnr, edits)
  if #edits > 0 then
    vim.lsp.util.apply_text_edits(edits, bufnr, 'utf-8')
  end
end

-- Applies a WorkspaceEdit ({changes} or {documentChanges}).
function M.apply_workspace_edit(edit)
  if edit and not vim.tbl_isempty(edit) then
    vim.lsp.util.apply_workspace_edit(edit, 'utf-8')
  end
end

return M
