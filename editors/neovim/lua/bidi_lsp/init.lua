-- bidi-lsp for Neovim: right-to-left and mixed-direction text, on Neovim's
-- built-in LSP client. See :help bidi-lsp.
--
--   require('bidi_lsp').setup({ auto_direction = true })
local client = require('bidi_lsp.client')
local config = require('bidi_lsp.config')

local M = {}

-- Sets the options (see :help bidi-lsp-options). Optional: without it the
-- defaults apply.
function M.setup(options)
  config.set(options)
end

-- Attaches buffer {bufnr} (0: the current one), starting the daemon.
function M.attach(bufnr)
  return client.attach(bufnr or 0)
end

-- FileType: attaches the buffers of the configured filetypes.
function M.on_filetype(bufnr)
  local filetypes = config.options.filetypes
  local filetype = vim.bo[bufnr].filetype
  if vim.tbl_contains(filetypes, '*') or vim.tbl_contains(filetypes, filetype) then
    client.attach(bufnr)
  end
end

function M.stop()
  client.stop()
end

function M.running()
  return client.running()
end

-- The paragraphs of lines {first} .. {last}: bidi/naturalDirection's answer.
function M.direction(bufnr, first, last)
  return require('bidi_lsp.commands').direction(bufnr, first, last)
end

-- The lines {first} .. {last} in visual order, one string per paragraph.
function M.visual_lines(bufnr, first, last)
  return vim.tbl_map(function(p)
    return p.text
  end, require('bidi_lsp.visual').paragraphs(bufnr, first, last))
end

-- Asks for the edits of insertMarks {mode} with {options} over {range} (an
-- LSP Range or a list of them) and applies them. Returns the edits.
function M.insert_marks(bufnr, mode, options, range)
  local ranges = range.start and { range } or range
  return require('bidi_lsp.commands').insert_marks(bufnr, mode, options, ranges)
end

-- Applies the preferred fix of each hazard on line {lnum}, or with {all} the
-- fix-all action. Returns the titles applied.
function M.fix(bufnr, lnum, all)
  return require('bidi_lsp.commands').fix(bufnr, require('bidi_lsp.edit').lines_range(lnum, lnum), all)
end

-- Sends any request about buffer {bufnr} and returns its result.
function M.request(bufnr, method, params)
  return client.request(bufnr, method, params)
end

return M
