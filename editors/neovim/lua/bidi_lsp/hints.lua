-- bidi-lsp: the invisible bidi controls shown by name (textDocument/inlayHint)
-- for the visible lines (see view.lua).
--
-- Neovim 0.10+ draws them as inlay hints do: inline virtual text before the
-- control (highlight LspInlayHint). Before 0.10 there is no inline virtual
-- text: the name is drawn over the control's own <200f> cells (overlay).
-- Neovim draws virtual text right to left in a 'rightleft' window, so there
-- the label is given reversed (0.10+), or not drawn at all before 0.10,
-- where virtual text in a 'rightleft' window garbles its line.
local config = require('bidi_lsp.config')

local M = {}

local api = vim.api
local namespace = api.nvim_create_namespace('bidi_lsp_hints')
local inline = vim.fn.has('nvim-0.10') == 1

-- bufnr -> extmark id -> { label, text }.
local labels = {}

function M.enabled(bufnr)
  return config.options.inlay_hints and not (config.options.builtin_inlay_hints and vim.lsp.inlay_hint)
    and vim.b[bufnr].bidi_lsp_hints ~= false
end

-- Whether buffer {bufnr} is shown right to left: in the current window if
-- it shows it, else in the first window that does.
local function rightleft(bufnr)
  local winid = api.nvim_get_current_win()
  if api.nvim_win_get_buf(winid) ~= bufnr then
    winid = vim.fn.bufwinid(bufnr)
  end
  return winid > 0 and vim.wo[winid].rightleft
end

local function highlight()
  return vim.fn.hlexists('LspInlayHint') == 1 and 'LspInlayHint' or 'NonText'
end

-- Places the mark of one hint; returns its text ('' when not drawn).
local function place(bufnr, lnum, col, label)
  local text = '<' .. label .. '>'
  local opts = { virt_text_pos = 'overlay' }
  if inline then
    opts.virt_text_pos = 'inline'
    if rightleft(bufnr) then
      text = text:reverse()
    end
  else
    if rightleft(bufnr) then
      text = ''
    else
      local line = api.nvim_buf_get_lines(bufnr, lnum, lnum + 1, false)[1] or ''
      local char = vim.fn.strpart(line, col, 1, true)
      local width = vim.fn.strdisplaywidth(char)
      if width >= #text then
        text = text .. string.rep(' ', width - #text)
      else
        opts.virt_text_pos = 'eol'
      end
    end
  end
  if text ~= '' then
    opts.virt_text = { { text, highlight() } }
  end
  local ok, id = pcall(api.nvim_buf_set_extmark, bufnr, namespace, lnum, col, opts)
  if ok then
    labels[bufnr] = labels[bufnr] or {}
    labels[bufnr][id] = { label = label, text = text }
  end
end

-- Replaces the hints shown on the lines of {span} ({first, last}) by {hints}.
function M.show(bufnr, span, hints)
  if type(hints) ~= 'table' or not api.nvim_buf_is_loaded(bufnr) then
    return
  end
  local first, last = span[1] - 1, math.min(span[2], api.nvim_buf_line_count(bufnr))
  for _, mark in ipairs(api.nvim_buf_get_extmarks(bufnr, namespace, { first, 0 }, { last - 1, -1 }, {})) do
    api.nvim_buf_del_extmark(bufnr, namespace, mark[1])
    if labels[bufnr] then
      labels[bufnr][mark[1]] = nil
    end
  end
  for _, hint in ipairs(hints) do
    local label = hint.label
    if type(label) == 'table' then
      label = table.concat(vim.tbl_map(function(part)
        return part.value
      end, label))
    end
    place(bufnr, hint.position.line, hint.position.character, label)
  end
end

-- The hints shown in buffer {bufnr}: { {lnum, col, label, text} } (1-based),
-- in order.
function M.shown(bufnr)
  local result = {}
  for _, mark in ipairs(api.nvim_buf_get_extmarks(bufnr, namespace, 0, -1, {})) do
    local item = (labels[bufnr] or {})[mark[1]] or { label = '', text = '' }
    table.insert(result, { lnum = mark[2] + 1, col = mark[3] + 1, label = item.label, text = item.text })
  end
  return result
end

-- Places the shown hints again, for the window's 'rightleft'.
function M.orient(bufnr)
  local shown = M.shown(bufnr)
  M.clear(bufnr)
  for _, item in ipairs(shown) do
    place(bufnr, item.lnum - 1, item.col - 1, item.label)
  end
end

function M.clear(bufnr)
  if api.nvim_buf_is_valid(bufnr) then
    api.nvim_buf_clear_namespace(bufnr, namespace, 0, -1)
  end
  labels[bufnr] = nil
end

-- Asks for the hints of lines {first} .. {last} and shows them (waits).
function M.refresh(bufnr, first, last)
  local client = require('bidi_lsp.client')
  local view = require('bidi_lsp.view')
  local hints = client.request(bufnr, 'textDocument/inlayHint',
    { textDocument = vim.lsp.util.make_text_document_params(bufnr), range = view.lines_range(first, last) })
  M.show(bufnr, { first, last }, hints)
  return hints
end

-- :BidiHints: turns the hints of the current buffer off or on.
function M.toggle(bufnr)
  local on = vim.b[bufnr].bidi_lsp_hints == false
  vim.b[bufnr].bidi_lsp_hints = on
  if on then
    require('bidi_lsp.view').schedule(bufnr, 0)
  else
    M.clear(bufnr)
  end
end

return M
