-- Tests of the Neovim plugin against the real daemon: the client, document
-- sync, the commands.
local h = _G.bidi_test_helpers
local bidi = require('bidi_lsp')
local api = vim.api
local T = {}

function T.test_daemon_starts_with_utf8_positions()
  h.open({ 'hello' })
  h.ok(bidi.running(), 'running')
  h.eq('utf-8', h.client().offset_encoding)
  h.matches('running .* positions utf%-8', h.output('BidiStatus'))
  h.eq(1, #h.sent('initialize') <= 1 and 1 or 0, 'initialize sent once')
end

function T.test_natural_direction_of_lines()
  local bufnr = h.open({ 'مرحبا بكم في bidi-lsp', 'Hello عالم', '12345' })
  local paragraphs = bidi.direction(bufnr, 1, 3)
  h.eq({ 'rtl', 'ltr', 'ltr' }, vim.tbl_map(function(p) return p.direction end, paragraphs))
  h.eq('line 1: rtl (firstStrong, first strong character at 1:1)', vim.trim(h.output('1BidiDirection')))
  h.matches('line 3: ltr %(fallback%)', h.output('3BidiDirection'))
end

function T.test_document_sync_after_edits()
  local bufnr = h.open({ 'first', 'שלום world', 'third' })
  h.assert_in_sync(bufnr)
  api.nvim_buf_set_lines(bufnr, 1, 2, false, { 'שלום עולם' })
  api.nvim_buf_set_lines(bufnr, 0, 0, false, { 'new first' })
  api.nvim_buf_set_lines(bufnr, -1, -1, false, { 'last', 'لغة عربية' })
  h.assert_in_sync(bufnr)
  vim.cmd('normal! 2Gdd')
  vim.cmd('$delete')
  vim.cmd('normal! ggOinserted \u{5d0}')
  h.assert_in_sync(bufnr)
  vim.cmd('silent undo')
  h.assert_in_sync(bufnr)
end

function T.test_insert_direction_marks_is_idempotent()
  local bufnr = h.open({ 'Hello عالم', 'مرحبا' })
  vim.cmd('1,2BidiInsertMarks direction rtl')
  h.eq({ h.RLM .. 'Hello عالم', 'مرحبا' }, api.nvim_buf_get_lines(bufnr, 0, -1, false))
  h.assert_in_sync(bufnr)
  h.eq({}, bidi.insert_marks(bufnr, 'direction', { direction = 'rtl' },
    require('bidi_lsp.edit').lines_range(1, 2)), 'idempotent')
  vim.cmd('2')
  vim.cmd('BidiInsertMarks direction ltr')
  h.eq(h.LRM .. 'مرحبا', api.nvim_buf_get_lines(bufnr, 1, 2, false)[1])
end

function T.test_isolate_the_visual_selection()
  local bufnr = h.open({ 'قال user: مرحبا' })
  api.nvim_feedkeys(api.nvim_replace_termcodes('0fuvf:<Esc>', true, false, true), 'x', false)
  vim.cmd("'<,'>BidiInsertMarks isolate")
  h.eq({ 'قال ' .. h.FSI .. 'user:' .. h.PDI .. ' مرحبا' }, api.nvim_buf_get_lines(bufnr, 0, -1, false))
  h.assert_in_sync(bufnr)
end

function T.test_placeholders_runs_and_strip()
  local bufnr = h.open({ '%@ مدفوعات بدون فوائد من %@', 'تواصل معنا: support@example.com أو +1 (555) 123-4567' })
  local before = api.nvim_buf_get_lines(bufnr, 1, 2, false)[1]
  vim.cmd('1BidiInsertMarks placeholders')
  h.eq(h.FSI .. '%@' .. h.PDI .. ' مدفوعات بدون فوائد من ' .. h.FSI .. '%@' .. h.PDI,
    api.nvim_buf_get_lines(bufnr, 0, 1, false)[1])
  vim.cmd('2BidiInsertMarks runs')
  h.ok(api.nvim_buf_get_lines(bufnr, 1, 2, false)[1] ~= before, 'runs isolated')
  vim.cmd('BidiStrip!')
  h.eq({ '%@ مدفوعات بدون فوائد من %@', before }, api.nvim_buf_get_lines(bufnr, 0, -1, false))
  h.assert_in_sync(bufnr)
end

-- A selection is the region; a block is one region per line; a range is
-- whole lines, even those of the last selection.
function T.test_mark_commands_respect_the_selection()
  local line = h.RLM .. 'abc ' .. h.RLM .. 'def ' .. h.RLM .. 'ghi'
  local bufnr = h.open({ line, line, line })
  local keys = function(k)
    api.nvim_feedkeys(api.nvim_replace_termcodes(k, true, false, true), 'xt', false)
  end
  keys('1G0fdhv3l:BidiStrip!<CR>')
  h.eq(h.RLM .. 'abc def ' .. h.RLM .. 'ghi', api.nvim_buf_get_lines(bufnr, 0, 1, false)[1])
  h.eq({ line, line }, api.nvim_buf_get_lines(bufnr, 1, 3, false), 'other lines untouched')
  keys('2G0<C-v>jf :BidiStrip!<CR>')
  local rest = 'abc ' .. h.RLM .. 'def ' .. h.RLM .. 'ghi'
  h.eq({ rest, rest }, api.nvim_buf_get_lines(bufnr, 1, 3, false))
  keys(':2,3BidiStrip!<CR>')
  h.eq({ 'abc def ghi', 'abc def ghi' }, api.nvim_buf_get_lines(bufnr, 1, 3, false))
  h.assert_in_sync(bufnr)
end

function T.test_nothing_to_change_is_said()
  h.open({ 'plain text', 'שלום' })
  h.matches('strip: nothing to change', h.output('BidiStrip'))
  h.matches('direction: nothing to change', h.output('2BidiInsertMarks direction rtl'))
  h.matches('direction: 1 edit', h.output('1BidiInsertMarks direction rtl'))
  h.matches('nothing to fix here', h.output('BidiFix'))
end

function T.test_info_shows_hover()
  local bufnr = h.open({ 'שלום world' })
  h.matches('Direction: rtl', require('bidi_lsp.commands').info(bufnr, 1))
end

function T.test_set_direction_from_the_lines()
  h.open({ 'שלום עולם', 'مرحبا', '' })
  vim.cmd('BidiSetDirection')
  h.ok(vim.wo.rightleft, 'rightleft')
  vim.cmd('BidiSetDirection ltr')
  h.ok(not vim.wo.rightleft, 'norightleft')
  api.nvim_buf_set_lines(0, 0, -1, false, { 'first', 'second', 'עברית' })
  vim.cmd('BidiSetDirection')
  h.ok(not vim.wo.rightleft, 'mixed lines: norightleft')
end

function T.test_filetype_auto_attach_and_stop()
  h.setup({ filetypes = { 'text' } })
  vim.cmd('edit ' .. vim.fn.tempname() .. '.txt')
  vim.bo.filetype = 'text'
  h.wait_for(function() return require('bidi_lsp.client').buffers[api.nvim_get_current_buf()] ~= nil end, 'attach')
  vim.cmd('edit ' .. vim.fn.tempname() .. '.py')
  vim.bo.filetype = 'python'
  h.ok(require('bidi_lsp.client').buffers[api.nvim_get_current_buf()] == nil, 'python not attached')
  vim.cmd('BidiStop')
  h.ok(not bidi.running(), 'stopped')
  vim.wait(400)
  h.ok(not bidi.running() and not require('bidi_lsp.client').restarts.pending, 'no restart after :BidiStop')
end

-- lsp/bidi_lsp.lua is the configuration for 0.11's vim.lsp.config.
function T.test_lsp_config_file_for_neovim_0_11()
  local cfg = dofile(h.root .. '/lsp/bidi_lsp.lua')
  h.eq('bidi_lsp', cfg.name)
  h.eq(h.options().cmd, cfg.cmd)
  h.eq({ 'utf-8' }, cfg.capabilities.general.positionEncodings)
  h.eq('plaintext', cfg.get_language_id(0, 'text'))
  h.eq('strings', cfg.get_language_id(0, 'strings'))
  h.ok(type(cfg.on_exit) == 'function' and type(cfg.on_attach) == 'function', 'restart and view hooks')
end

return T
