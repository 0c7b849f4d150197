-- bidi-lsp: the visual-order window (:BidiVisual): lines as they display,
-- left to right, for terminals that do not reorder. Combining marks after
-- their base ("combiningMarks": "afterBase"), no bidi controls ("controls":
-- "strip"), right-to-left paragraphs right-aligned, and Neovim's Arabic
-- shaping off while it is open ('arabicshape' is global; shaping text already
-- in visual order joins the wrong neighbours). Nothing in Neovim then joins
-- Arabic letters there, so the daemon does ("shape": true, the presentation
-- forms) unless the `visual_shape` option is false.
local client = require('bidi_lsp.client')
local config = require('bidi_lsp.config')

local M = {}

local api = vim.api
local name = 'bidi-lsp://visual'
local saved_arabicshape = nil

-- The options of the bidi/visualOrder request for what the window shows.
M.options = { include = { 'visualText' }, combiningMarks = 'afterBase', controls = 'strip' }

-- M.options with "shape" as the `visual_shape` option says.
function M.request_options()
  return vim.tbl_extend('force', M.options, { shape = config.options.visual_shape ~= false })
end

-- The visual order of lines {first} .. {last}: { {text, direction} }, one per
-- paragraph.
function M.paragraphs(bufnr, first, last)
  local params = vim.tbl_extend('force', {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    range = require('bidi_lsp.view').lines_range(first, last),
  }, M.request_options())
  local result = {}
  for _, paragraph in ipairs(client.request(bufnr, 'bidi/visualOrder', params).paragraphs) do
    local text = table.concat(vim.tbl_map(function(line)
      return line.visualText
    end, paragraph.lines))
    table.insert(result, { text = text, direction = paragraph.direction })
  end
  return result
end

-- The lines of the window, {width} columns wide: right-to-left paragraphs
-- padded on the left to end at the right edge.
function M.layout(paragraphs, width)
  return vim.tbl_map(function(paragraph)
    local pad = paragraph.direction == 'rtl' and width - vim.fn.strdisplaywidth(paragraph.text) or 0
    return string.rep(' ', math.max(0, pad)) .. paragraph.text
  end, paragraphs)
end

function M.restore_shaping()
  if saved_arabicshape ~= nil then
    vim.o.arabicshape = saved_arabicshape
    saved_arabicshape = nil
  end
end

function M.show(bufnr, first, last)
  local paragraphs = M.paragraphs(bufnr, first, last)
  local source = api.nvim_get_current_win()
  local visual = vim.fn.bufnr(name)
  local winid = visual > 0 and vim.fn.bufwinid(visual) or -1
  if winid > 0 then
    api.nvim_set_current_win(winid)
  else
    vim.cmd(('silent botright %dnew %s'):format(math.min(#paragraphs + 1, 12), name))
    vim.bo.buftype, vim.bo.bufhidden, vim.bo.swapfile, vim.bo.buflisted = 'nofile', 'wipe', false, false
    local wo = vim.wo
    wo.rightleft, wo.list, wo.spell, wo.number, wo.relativenumber = false, false, false, false, false
    wo.wrap, wo.foldcolumn, wo.signcolumn = false, '0', 'no'
    api.nvim_create_autocmd('BufWipeout', { buffer = 0, callback = M.restore_shaping })
  end
  if saved_arabicshape == nil then
    saved_arabicshape = vim.o.arabicshape
  end
  vim.o.arabicshape = false
  vim.bo.modifiable = true
  api.nvim_buf_set_lines(0, 0, -1, false, M.layout(paragraphs, api.nvim_win_get_width(0) - 1))
  vim.bo.modifiable = false
  api.nvim_set_current_win(source)
end

return M
