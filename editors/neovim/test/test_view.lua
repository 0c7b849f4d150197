-- Tests of the Neovim plugin: what it asks by itself (the visible lines
-- only), hints, auto direction, the visual window, quick fixes, restarts and
-- localization files.
local h = _G.bidi_test_helpers
local api = vim.api
local T = {}

local function lines(bufnr)
  return api.nvim_buf_get_lines(bufnr, 0, -1, false)
end

function T.test_open_sends_each_request_once()
  h.setup({ auto_direction = 'lines' })
  h.record()
  local bufnr = h.open({ 'שלום', 'עולם' })
  vim.cmd('doautocmd <nomodeline> BufWinEnter')
  h.wait_for_view(bufnr)
  vim.wait(100)
  h.eq(1, #h.sent('textDocument/didOpen'), 'one didOpen')
  h.eq(1, #h.sent('bidi/visualOrder'), 'one direction request')
  h.eq(1, #h.sent('textDocument/inlayHint'), 'one hints request')
  h.ok(vim.wo.rightleft, 'auto direction applied')
end

function T.test_only_the_visible_lines_are_asked_for()
  h.setup({ auto_direction = true })
  h.record()
  local content = {}
  for i = 1, 5000 do
    content[i] = (i % 2 == 0) and ('שלום ' .. i) or ('hello ' .. i)
  end
  local bufnr = h.open(content)
  h.wait_for_view(bufnr)
  local height = api.nvim_win_get_height(0)
  for _, method in ipairs({ 'textDocument/inlayHint', 'bidi/visualOrder' }) do
    local sent = h.sent(method)
    h.eq(1, #sent, method)
    h.eq(0, sent[1].params.range.start.line, method)
    h.ok(sent[1].params.range['end'].line <= height + 50 + 1, method .. ' ' .. vim.inspect(sent[1].params.range))
  end
  vim.cmd('normal! 3000Gzz')
  require('bidi_lsp.view').on_scroll(api.nvim_get_current_win())
  h.wait_for_view(bufnr)
  local sent = h.sent('textDocument/inlayHint')
  local range = sent[#sent].params.range
  h.ok(range.start.line >= 2999 - height - 50 and range['end'].line <= 3000 + height + 50, vim.inspect(range))
  local before = #sent
  for i = 1, 5 do
    api.nvim_buf_set_lines(bufnr, 2999, 3000, false, { 'edit ' .. i })
    vim.cmd('doautocmd <nomodeline> TextChanged')
  end
  h.wait_for_view(bufnr)
  h.eq(before + 1, #h.sent('textDocument/inlayHint'), 'one refresh after a burst of edits')
  for _, method in ipairs({ 'textDocument/inlayHint', 'bidi/visualOrder', 'bidi/naturalDirection' }) do
    for _, message in ipairs(h.sent(method)) do
      local r = message.params.range
      h.ok(r['end'].line - r.start.line <= 1000, method .. ' ' .. vim.inspect(r))
    end
  end
end

function T.test_hints_name_the_controls()
  local bufnr = h.open({ h.RLM .. 'שלום', 'x ' .. h.LRI .. 'y' .. h.PDI })
  require('bidi_lsp.hints').refresh(bufnr, 1, 2)
  local shown = vim.tbl_map(function(item)
    return { item.lnum, item.col, item.label }
  end, require('bidi_lsp.hints').shown(bufnr))
  h.eq({ { 1, 1, 'RLM' }, { 2, 3, 'LRI' }, { 2, 7, 'PDI' } }, shown)
  vim.cmd('redraw!')
  if vim.fn.has('nvim-0.10') == 0 then
    -- Drawn over the control's own <200f> cells.
    h.matches('<RLM> ', vim.fn.screenstring(1, 1) .. table.concat(vim.tbl_map(function(c)
      return vim.fn.screenstring(1, c)
    end, vim.fn.range(2, 8))))
  end
  vim.cmd('BidiHints')
  h.eq({}, require('bidi_lsp.hints').shown(bufnr))
end

-- Neovim draws virtual text right to left in a 'rightleft' window: the
-- label is reversed there (0.10+), or not drawn (before 0.10, where it
-- garbles its line).
function T.test_hint_names_not_mirrored_in_rightleft_windows()
  local bufnr = h.open({ 'שלום' .. h.RLM .. ' עולם' })
  local hints = require('bidi_lsp.hints')
  hints.refresh(bufnr, 1, 1)
  vim.wo.rightleft = true
  vim.cmd('doautocmd <nomodeline> OptionSet rightleft')
  local item = hints.shown(bufnr)[1]
  h.eq('RLM', item.label)
  if vim.fn.has('nvim-0.10') == 1 then
    h.eq('>MLR<', item.text, 'given reversed, drawn <RLM>')
  else
    h.eq('', item.text, 'not drawn')
  end
  vim.wo.rightleft = false
  vim.cmd('doautocmd <nomodeline> OptionSet rightleft')
  h.eq('<RLM>', vim.trim(hints.shown(bufnr)[1].text))
end

function T.test_auto_direction_never_mirrors_mixed_notes()
  h.setup({ auto_direction = true })
  local bufnr = h.open({ 'פגישה עם דני', 'Meeting notes', 'שלום עולם', 'מחר 10:30' })
  h.wait_for_view(bufnr)
  h.ok(not vim.wo.rightleft, 'mixed lines: norightleft')
  api.nvim_buf_set_lines(bufnr, 0, -1, false, { 'פגישה עם דני', 'שלום עולם', '', 'עוד שורה' })
  vim.cmd('doautocmd <nomodeline> TextChanged')
  h.wait_for_view(bufnr)
  h.ok(vim.wo.rightleft, 'only RTL lines: rightleft')
  api.nvim_buf_set_lines(bufnr, 1, 2, false, { 'שלום 2024' })
  vim.cmd('doautocmd <nomodeline> TextChanged')
  h.wait_for_view(bufnr)
  h.ok(not vim.wo.rightleft, 'a number: norightleft')
end

function T.test_visual_window_is_not_shaped_right_aligned_and_asked_right()
  local bufnr = h.open({ 'السلام عليكم', 'hello world' })
  h.record()
  vim.cmd('1,2BidiVisual')
  local sent = h.sent('bidi/visualOrder')
  h.eq(1, #sent)
  h.eq('afterBase', sent[1].params.combiningMarks)
  h.eq('strip', sent[1].params.controls)
  local visual = vim.fn.bufnr('bidi-lsp://visual')
  local winid = vim.fn.bufwinid(visual)
  h.ok(winid > 0, 'the window is open')
  h.ok(not vim.o.arabicshape, "'arabicshape' off while it is open")
  local shown = lines(visual)
  h.eq(api.nvim_win_get_width(winid) - 1, vim.fn.strdisplaywidth(shown[1]), 'RTL line at the right edge')
  h.eq('hello world', shown[2])
  h.eq(bufnr, api.nvim_get_current_buf(), 'back in the source window')
  api.nvim_win_close(winid, true)
  h.ok(vim.o.arabicshape, "'arabicshape' restored")
end

-- "السلام عليكم" joined and in visual order: meem final, kaf, yeh and lam
-- medial, ain initial; meem isolated, lam-alef final, seen medial, lam
-- initial, alef isolated (as fribidi --nopad --nobreak --clean prints it).
local shaped_greeting = vim.fn.list2str({
  0xFEE2, 0xFEDC, 0xFEF4, 0xFEE0, 0xFECB, 0x20, 0xFEE1, 0xFEFC, 0xFEB4, 0xFEDF, 0xFE8D,
})

function T.test_visual_window_joins_arabic_letters_unless_told_not_to()
  local bufnr = h.open({ 'السلام عليكم' })
  h.record()
  vim.cmd('BidiVisual')
  h.eq(true, h.sent('bidi/visualOrder')[1].params.shape, 'visual_shape defaults to true')
  local visual = vim.fn.bufnr('bidi-lsp://visual')
  h.eq(shaped_greeting, vim.trim(lines(visual)[1]), 'presentation forms in the window')
  api.nvim_win_close(vim.fn.bufwinid(visual), true)

  h.setup({ visual_shape = false })
  bufnr = h.open({ 'السلام عليكم' })
  h.record()
  vim.cmd('BidiVisual')
  h.eq(false, h.sent('bidi/visualOrder')[1].params.shape, 'visual_shape = false')
  visual = vim.fn.bufnr('bidi-lsp://visual')
  h.eq('مكيلع مالسلا', vim.trim(lines(visual)[1]), 'the letters as stored, reversed')
  api.nvim_win_close(vim.fn.bufwinid(visual), true)
end

function T.test_visual_window_shows_marks_after_their_letter()
  local word = 'שָׁלוֹם'
  local bufnr = h.open({ word .. ' ' .. h.LRI .. 'x' .. h.PDI })
  local text = require('bidi_lsp').visual_lines(bufnr, 1, 1)[1]
  local codepoints = vim.fn.str2list(word)
  local reversed = {}
  for i = #codepoints, 1, -1 do
    reversed[#reversed + 1] = codepoints[i]
  end
  h.ok(not text:find(vim.fn.list2str(reversed), 1, true), 'a mark before its letter: ' .. text)
  local clusters = vim.fn.split(word, [[\zs]])
  local after_base = {}
  for i = #clusters, 1, -1 do
    after_base[#after_base + 1] = clusters[i]
  end
  h.ok(text:find(table.concat(after_base), 1, true) ~= nil, text)
  h.ok(not text:find(h.LRI, 1, true) and not text:find(h.PDI, 1, true), 'no controls: ' .. text)
end

function T.test_diagnostics_and_fix_every_hazard_on_the_line()
  local bufnr = h.open({ 'a ' .. h.RLO .. 'b ' .. h.LRI .. 'c d', 'x' })
  h.wait_for(function() return #vim.diagnostic.get(bufnr) >= 3 end, 'the diagnostics')
  local fixes = require('bidi_lsp.commands').quick_fixes(bufnr, require('bidi_lsp.edit').lines_range(1, 1))
  local seen = {}
  for _, fix in ipairs(fixes) do
    local key = vim.inspect(fix.edit)
    h.ok(not seen[key], 'a duplicate fix: ' .. fix.title)
    seen[key] = true
  end
  vim.cmd('normal! 1G$')
  vim.cmd('BidiFix')
  h.wait_for(function()
    return #vim.tbl_filter(function(d) return d.code ~= 'bidi.override' end, vim.diagnostic.get(bufnr)) == 0
  end, 'no unpaired control left: ' .. lines(bufnr)[1])
  api.nvim_buf_set_lines(bufnr, 1, 2, false, { h.RLO .. 'y' })
  h.wait_for(function() return #vim.diagnostic.get(bufnr) >= 1 end, 'a new diagnostic')
  vim.cmd('BidiFix!')
  h.wait_for(function() return #vim.diagnostic.get(bufnr) == 0 end, 'no diagnostic after fix all')
end

-- Neovim's publishDiagnostics handler (0.7-0.9) read the whole buffer on
-- every publish (85-115 ms at 100,000 lines, an empty set too): the
-- plugin's handler takes the utf-8 characters as byte columns.
function T.test_diagnostics_without_reading_the_buffer()
  local default = vim.lsp.diagnostic.on_publish_diagnostics
  local calls = 0
  vim.lsp.diagnostic.on_publish_diagnostics = function(...)
    calls = calls + 1
    return default(...)
  end
  local ok, failure = pcall(function()
    local bufnr = h.open({ 'שלום ' .. h.RLO .. 'x', 'plain' })
    h.wait_for(function() return #vim.diagnostic.get(bufnr) >= 1 end, 'the diagnostics')
    local d = vim.diagnostic.get(bufnr)[1]
    h.eq({ 0, 9, 0, 12 }, { d.lnum, d.col, d.end_lnum, d.end_col }, 'byte columns of the RLO')
    h.eq(vim.diagnostic.severity.ERROR, d.severity, 'severity (an error)')
    h.ok(d.code ~= nil and d.message ~= '', 'code and message')
    api.nvim_buf_set_lines(bufnr, 0, 1, false, { 'clean' })
    h.wait_for(function() return #vim.diagnostic.get(bufnr) == 0 end, 'the diagnostics cleared')
  end)
  vim.lsp.diagnostic.on_publish_diagnostics = default
  if not ok then
    error(failure, 0)
  end
  h.eq(0, calls, "Neovim's handler not used")
end

function T.test_status_shows_the_last_messages()
  h.open({ 'x' })
  local client = require('bidi_lsp.client')
  client.log_message('first test message')
  client.log_message('second test message')
  local status = h.output('BidiStatus')
  h.matches('first test message', status)
  h.matches('second test message', status)
end

function T.test_daemon_killed_is_restarted_with_the_open_buffers()
  h.setup({ cmd = { h.daemon() } })
  local bufnr = h.open({ 'שלום', 'x' })
  local old = h.client()
  local pid = old.rpc.pid
  vim.fn.system('kill -9 ' .. pid)
  h.wait_for(function() return h.client() == nil or h.client().id ~= old.id end, 'the daemon to die')
  api.nvim_buf_set_lines(bufnr, 1, 2, false, { 'changed while it was down', 'עוד שורה' })
  h.wait_for(function() return require('bidi_lsp').running() end, 'the restart')
  h.ok(h.client().rpc.pid ~= pid, 'a new process')
  h.matches('restarted', table.concat(require('bidi_lsp.client').messages(), '\n'))
  h.assert_in_sync(bufnr)
  h.eq('rtl', require('bidi_lsp').direction(bufnr, 3, 3)[1].direction)
  api.nvim_buf_set_lines(bufnr, 0, 1, false, { 'hello' })
  h.assert_in_sync(bufnr)
  h.matches('restarted 1 time', h.output('BidiStatus'))
end

function T.test_restart_back_off_doubles_up_to_thirty_seconds()
  local backoff = require('bidi_lsp.client').backoff
  h.eq({ 250, 500, 1000, 2000, 4000 }, vim.tbl_map(backoff, { 0, 1, 2, 3, 4 }))
  h.eq(30000, backoff(9))
end

function T.test_localization_files_are_detected()
  local dir = vim.fn.tempname()
  local cases = {
    ['ar.lproj/Localizable.strings'] = 'strings', ['ar.lproj/Localizable.stringsdict'] = 'stringsdict',
    ['Localizable.xcstrings'] = 'xcstrings', ['intl_ar.arb'] = 'arb', ['ar.po'] = 'po',
    ['messages_ar.properties'] = 'jproperties',
  }
  h.setup({ filetypes = vim.tbl_values(cases) })
  h.record()
  for name, filetype in pairs(cases) do
    vim.cmd('edit ' .. vim.fn.fnameescape(dir .. '/' .. name))
    h.eq(filetype, vim.bo.filetype, name)
    h.ok(require('bidi_lsp.config').is_localization(api.nvim_get_current_buf()), name)
  end
  h.wait_for(function() return #h.sent('textDocument/didOpen') == 6 end, 'six didOpen')
  local ids = vim.tbl_map(function(m) return m.params.textDocument.languageId end, h.sent('textDocument/didOpen'))
  table.sort(ids)
  local expected = vim.tbl_values(cases)
  table.sort(expected)
  h.eq(expected, ids)
end

function T.test_localization_commands_send_the_cursor_or_selection()
  vim.cmd('edit ' .. vim.fn.fnameescape(vim.fn.tempname() .. '/ar.lproj/Localizable.strings'))
  api.nvim_buf_set_lines(0, 0, -1, false, { '"payment" = "%@ مدفوعات بدون فوائد من %@";', '"k" = "' .. h.RLO .. 'x";' })
  require('bidi_lsp.client').ready(0)
  h.record()
  vim.cmd('normal! 1G0f%l')
  vim.cmd('BidiInsertMarks placeholders')
  local sent = h.sent('bidi/insertMarks')
  h.eq({ start = { line = 0, character = 14 }, ['end'] = { line = 0, character = 14 } }, sent[#sent].params.range)
  vim.cmd('normal! 2G0fx')
  vim.cmd('BidiFix')
  sent = h.sent('textDocument/codeAction')
  h.eq({ start = { line = 1, character = 10 }, ['end'] = { line = 1, character = 10 } }, sent[#sent].params.range)
end

-- Subtitles and Markdown (contract §8): .srt and .vtt get filetypes (Neovim
-- 0.7 has none), the languageIds are those the daemon knows, and commands
-- send the cursor: the daemon takes the cue line or block under it. (Named
-- to run after the tests that start the daemon, as the localization test.)
function T.test_subtitles_and_markdown_are_detected_and_commands_send_the_cursor()
  local dir = vim.fn.tempname()
  vim.fn.mkdir(dir, 'p')
  local cases = { ['movie.ar.srt'] = 'srt', ['movie.he.vtt'] = 'webvtt', ['README.fa.md'] = 'markdown' }
  h.setup({ filetypes = { 'srt', 'webvtt', 'markdown' } })
  h.record()
  local config = require('bidi_lsp.config')
  for name, filetype in pairs(cases) do
    vim.cmd('edit ' .. vim.fn.fnameescape(dir .. '/' .. name))
    h.eq(filetype, vim.bo.filetype, name)
    h.ok(config.is_structured(api.nvim_get_current_buf()), name)
    h.ok(not config.is_localization(api.nvim_get_current_buf()), name)
  end
  -- Only this test's files: an earlier test's buffer may still be opened
  -- (its didOpen sent) after recording started.
  local function opened()
    return vim.tbl_filter(function(m)
      return m.params.textDocument.uri:find(vim.uri_from_fname(dir), 1, true) == 1
    end, h.sent('textDocument/didOpen'))
  end
  vim.wait(10000, function() return #opened() == 3 end, 10)
  local uris = vim.tbl_map(function(m) return m.params.textDocument.uri end, opened())
  h.eq(3, #uris, 'didOpen of ' .. vim.inspect(uris))
  local ids = vim.tbl_map(function(m) return m.params.textDocument.languageId end, opened())
  table.sort(ids)
  h.eq({ 'markdown', 'srt', 'vtt' }, ids)
  vim.cmd('edit ' .. vim.fn.fnameescape(dir .. '/movie.ar.srt'))
  api.nvim_buf_set_lines(0, 0, -1, false, { '1', '00:00:01,000 --> 00:00:02,000', '<i>مرحبا!</i>', '' })
  require('bidi_lsp.client').ready(0)
  vim.cmd('normal! 3G0fح')
  vim.cmd('BidiInsertMarks direction rtl')
  local range = h.sent('bidi/insertMarks')[#h.sent('bidi/insertMarks')].params.range
  h.eq(range.start, range['end'])
  h.eq(2, range.start.line)
  h.ok(range.start.character > 0, 'the cursor, not the line start')
  vim.cmd('BidiFix')
  range = h.sent('textDocument/codeAction')[#h.sent('textDocument/codeAction')].params.range
  h.eq(range.start, range['end'])
end

return T
