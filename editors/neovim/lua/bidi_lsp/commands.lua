-- bidi-lsp: the user commands (plugin/bidi_lsp.lua defines them).
local client = require('bidi_lsp.client')
local config = require('bidi_lsp.config')
local edit = require('bidi_lsp.edit')

local M = {}

local api = vim.api

local function fail(err)
  local message = tostring(err):gsub('^bidi%-lsp: ', '')
  vim.notify('bidi-lsp: ' .. message, vim.log.levels.ERROR)
end

-- Runs fn(), reporting 'bidi-lsp: ...' errors as messages.
local function guarded(fn)
  return function(...)
    local ok, err = pcall(fn, ...)
    if not ok then
      fail(err)
    end
  end
end

local function document(bufnr)
  return { uri = vim.uri_from_bufnr(bufnr) }
end

-- --------------------------------------------------------------- ranges --

local force_visual = false

-- Whether a command runs on the last Visual selection: typed as
-- ":'<,'>Bidi..." (plugin/bidi_lsp.lua keeps the command line last typed in
-- g:bidi_lsp_last_cmdline), else, from a script or a mapping, when its lines
-- are those of the selection.
local function from_visual(opts)
  local typed = vim.g.bidi_lsp_last_cmdline or ''
  vim.g.bidi_lsp_last_cmdline = ''
  if force_visual then
    return true
  end
  if typed:match('Bidi') then
    return typed:match("^[: \t]*'<%s*,%s*'>") ~= nil
  end
  return opts.range > 0 and opts.line1 == vim.fn.line("'<") and opts.line2 == vim.fn.line("'>")
end

-- The LSP Ranges a command acts on (see :help bidi-lsp-ranges): the last
-- Visual selection when the command runs on it (characterwise: the
-- selection; blockwise: one range per line), the cursor in a localization
-- file or its line elsewhere without a range, else the lines of the range.
function M.ranges(opts)
  local mode = vim.fn.visualmode()
  if from_visual(opts) then
    if mode == 'v' then
      return { edit.selection_range() }
    elseif mode == '\22' then
      return edit.block_ranges()
    end
  end
  if opts.range == 0 then
    if config.is_structured(api.nvim_get_current_buf()) then
      return { edit.cursor_range() }
    end
    local line = vim.fn.line('.')
    return { edit.lines_range(line, line) }
  end
  return { edit.lines_range(opts.line1, opts.line2) }
end

-- ------------------------------------------------------------ requests --

function M.direction(bufnr, first, last)
  return client.request(bufnr, 'bidi/naturalDirection',
    { textDocument = document(bufnr), range = edit.lines_range(first, last) }).paragraphs
end

-- Asks bidi/insertMarks for {mode} with {options} over {ranges} and applies
-- the edits as one change. Returns the edits.
function M.insert_marks(bufnr, mode, options, ranges)
  local edits, seen = {}, {}
  for _, range in ipairs(ranges) do
    local params = vim.tbl_extend('keep',
      { textDocument = document(bufnr), mode = mode, range = range }, options or {})
    for _, e in ipairs(client.request(bufnr, 'bidi/insertMarks', params).edits) do
      local key = vim.inspect(e)
      if not seen[key] then
        seen[key] = true
        table.insert(edits, e)
      end
    end
  end
  edit.apply(bufnr, edits)
  return edits
end

local function report(mode, edits)
  if #edits == 0 then
    vim.api.nvim_echo({ { 'bidi-lsp: ' .. mode .. ': nothing to change' } }, false, {})
  else
    vim.api.nvim_echo({ { ('bidi-lsp: %s: %d edit%s'):format(mode, #edits, #edits == 1 and '' or 's') } }, false, {})
  end
end

-- ---------------------------------------------------------- commands --

M.mode_argument = { direction = 'direction', isolate = 'isolate', placeholders = 'style', strip = 'only', runs = '' }
M.mode_values = {
  direction = { 'ltr', 'rtl' }, isolate = { 'auto', 'ltr', 'rtl' },
  placeholders = { 'isolate', 'marks' }, strip = { 'all', 'unpaired' }, runs = {},
}

function M.complete_modes(arglead, cmdline)
  local words = vim.split(cmdline, '%s+')
  local choices
  if #words <= 2 then
    choices = vim.tbl_keys(M.mode_argument)
    table.sort(choices)
  else
    choices = M.mode_values[words[2]] or {}
  end
  return vim.tbl_filter(function(choice)
    return choice:sub(1, #arglead) == arglead
  end, choices)
end

local function within_lines(ranges)
  local result = {}
  for _, range in ipairs(ranges) do
    if range['end'].character == 0 and range['end'].line > range.start.line then
      for line = range.start.line, range['end'].line - 1 do
        table.insert(result, { start = { line = line, character = 0 },
          ['end'] = { line = line, character = #vim.fn.getline(line + 1) } })
      end
    else
      table.insert(result, range)
    end
  end
  return result
end

M.insert_marks_command = guarded(function(opts)
  local mode = opts.fargs[1]
  if not M.mode_argument[mode] then
    local modes = vim.tbl_keys(M.mode_argument)
    table.sort(modes)
    error('unknown mode ' .. tostring(mode) .. '; expected one of ' .. table.concat(modes, ', '), 0)
  end
  local options = {}
  for i = 2, #opts.fargs do
    local key, value = opts.fargs[i]:match('^([^=]*)=(.*)$')
    if key then
      options[key] = value
    elseif M.mode_argument[mode] ~= '' then
      options[M.mode_argument[mode]] = opts.fargs[i]
    end
  end
  if mode == 'direction' and not options.direction then
    error('direction needs ltr or rtl', 0)
  end
  local bufnr = api.nvim_get_current_buf()
  local ranges = M.ranges(opts)
  if mode == 'isolate' then
    if opts.range == 0 and not config.is_structured(bufnr) then
      error('isolate needs a selection (use it from Visual mode)', 0)
    end
    ranges = within_lines(ranges)
  end
  report(mode, M.insert_marks(bufnr, mode, options, ranges))
end)

M.strip_command = guarded(function(opts)
  local bufnr = api.nvim_get_current_buf()
  local only = opts.bang and 'all' or 'unpaired'
  local ranges = opts.range == 0 and { edit.lines_range(1, api.nvim_buf_line_count(bufnr)) } or M.ranges(opts)
  report('strip', M.insert_marks(bufnr, 'strip', { only = only }, ranges))
end)

-- The Visual-mode mappings: the selection as it is.
function M.visual_insert_marks(mode)
  force_visual = true
  local ok, err = pcall(M.insert_marks_command, { fargs = { mode }, range = 2,
    line1 = vim.fn.line("'<"), line2 = vim.fn.line("'>") })
  force_visual = false
  if not ok then
    fail(err)
  end
end

M.direction_command = guarded(function(opts)
  local lines = {}
  for _, p in ipairs(M.direction(api.nvim_get_current_buf(), opts.line1, opts.line2)) do
    local text = 'line ' .. (p.line + 1)
    if p.start > 0 or p['end'] < #vim.fn.getline(p.line + 1) then
      text = text .. ('[%d-%d]'):format(p.start + 1, p['end'])
    end
    text = text .. ': ' .. p.direction .. ' (' .. p.basis
    if p.strongCharacter then
      text = text .. (', first strong character at %d:%d'):format(p.strongCharacter.line + 1,
        p.strongCharacter.character + 1)
    end
    table.insert(lines, text .. ')')
  end
  print(table.concat(lines, '\n'))
end)

M.set_direction_command = guarded(function(opts)
  local direction = opts.args
  if direction ~= '' and direction ~= 'ltr' and direction ~= 'rtl' then
    error('expected ltr or rtl, got ' .. direction, 0)
  end
  local winid = api.nvim_get_current_win()
  if direction == '' then
    direction = require('bidi_lsp.view').apply_direction(winid)
  else
    vim.wo[winid].rightleft = direction == 'rtl'
  end
  print(direction and ('bidi-lsp: ' .. (direction == 'rtl' and 'rightleft' or 'norightleft'))
    or 'bidi-lsp: no strong character; direction unchanged')
end)

M.visual_command = guarded(function(opts)
  require('bidi_lsp.visual').show(api.nvim_get_current_buf(), opts.line1, opts.line2)
end)

function M.info(bufnr, lnum)
  local answer = client.request(bufnr, 'textDocument/hover',
    { textDocument = document(bufnr), position = { line = lnum - 1, character = 0 } })
  return type(answer) == 'table' and answer.contents.value or ''
end

M.info_command = guarded(function(opts)
  print(M.info(api.nvim_get_current_buf(), opts.line1))
end)

-- ------------------------------------------------------ code actions --

-- The quick fixes of the hazards {range} touches, each fix once however
-- many diagnostics of a control it answers.
function M.quick_fixes(bufnr, range)
  local first, last = range.start.line, range['end'].line
  local diagnostics = {}
  local c = client.ready(bufnr)
  for _, d in ipairs(vim.diagnostic.get(bufnr, { namespace = vim.lsp.diagnostic.get_namespace(c.id) })) do
    if d.lnum <= last and (d.end_lnum or d.lnum) >= first then
      table.insert(diagnostics, {
        range = { start = { line = d.lnum, character = d.col },
          ['end'] = { line = d.end_lnum or d.lnum, character = d.end_col or d.col } },
        severity = d.severity, code = d.code or ((d.user_data or {}).lsp or {}).code,
        source = d.source, message = d.message,
      })
    end
  end
  local actions = client.request(bufnr, 'textDocument/codeAction', { textDocument = document(bufnr),
    range = range, context = { diagnostics = diagnostics, only = { 'quickfix' } } }) or {}
  local unique, index = {}, {}
  for _, action in ipairs(actions) do
    local key = vim.inspect(action.edit or {})
    if not index[key] then
      index[key] = #unique + 1
      table.insert(unique, action)
    elseif action.isPreferred then
      unique[index[key]].isPreferred = true
    end
  end
  return unique
end

local function before(a, b)
  return a.line < b.line or (a.line == b.line and a.character < b.character)
end

local function overlaps(a, b)
  return before(a.range.start, b.range['end']) and before(b.range.start, a.range['end'])
end

local function edits_of(action)
  local edits = {}
  for _, list in pairs((action.edit or {}).changes or {}) do
    vim.list_extend(edits, list)
  end
  return edits
end

-- Applies, as one change, the preferred fix of each hazard {range} touches
-- (the first preferred one of each control), or with {all} the first
-- fix-all action of the buffer. Returns the titles applied.
function M.fix(bufnr, range, all)
  if all then
    local actions = client.request(bufnr, 'textDocument/codeAction', { textDocument = document(bufnr),
      range = edit.lines_range(1, api.nvim_buf_line_count(bufnr)),
      context = { diagnostics = {}, only = { 'source.fixAll' } } }) or {}
    if #actions == 0 then
      return {}
    end
    edit.apply_workspace_edit(actions[1].edit)
    return { actions[1].title }
  end
  local chosen, titles, edits = {}, {}, {}
  for _, action in ipairs(M.quick_fixes(bufnr, range)) do
    local diagnostic = (action.diagnostics or {})[1]
    local key = diagnostic and vim.inspect(diagnostic.range) or action.title
    if action.isPreferred and not chosen[key] then
      local new, clash = edits_of(action), false
      for _, a in ipairs(new) do
        for _, b in ipairs(edits) do
          clash = clash or overlaps(a, b)
        end
      end
      if not clash then
        chosen[key] = true
        table.insert(titles, action.title)
        vim.list_extend(edits, new)
      end
    end
  end
  edit.apply(bufnr, edits)
  return titles
end

local function fix_range(opts)
  local ranges = M.ranges(opts)
  return { start = ranges[1].start, ['end'] = ranges[#ranges]['end'] }
end

M.fix_command = guarded(function(opts)
  local titles = M.fix(api.nvim_get_current_buf(), fix_range(opts), opts.bang)
  print(#titles == 0 and ('bidi-lsp: nothing to fix' .. (opts.bang and '' or ' here'))
    or ('bidi-lsp: ' .. table.concat(titles, '; ')))
end)

M.fixes_command = guarded(function(opts)
  local bufnr = api.nvim_get_current_buf()
  local actions = M.quick_fixes(bufnr, fix_range(opts))
  if #actions == 0 then
    print('bidi-lsp: nothing to fix here')
    return
  end
  vim.ui.select(actions, {
    prompt = 'Quick fixes:',
    format_item = function(action)
      return action.title .. (action.isPreferred and ' (preferred)' or '')
    end,
  }, function(action)
    if action then
      edit.apply_workspace_edit(action.edit)
    end
  end)
end)

M.diagnostics_command = guarded(function()
  local c = client.ready(api.nvim_get_current_buf())
  vim.diagnostic.setloclist({ namespace = vim.lsp.diagnostic.get_namespace(c.id), title = 'bidi-lsp' })
end)

-- -------------------------------------------------------------- status --

function M.status_lines()
  local c = client.get()
  local lines = {}
  if c and c.initialized then
    local info = client.server_info or {}
    local pid = c.rpc and c.rpc.pid or '?'
    table.insert(lines, ('bidi-lsp %s running (%s), positions %s, %d buffer(s) attached'):format(
      info.version or '?', tostring(pid), c.offset_encoding, vim.tbl_count(client.buffers)))
  else
    table.insert(lines, 'bidi-lsp is not running' .. (client.restarts.pending and ' (a restart is scheduled)' or ''))
  end
  if client.restarts.total > 0 then
    lines[1] = lines[1] .. (', restarted %d time(s)'):format(client.restarts.total)
  end
  for _, message in ipairs(client.messages(10)) do
    table.insert(lines, '  ' .. message)
  end
  return lines
end

function M.status_command()
  print(table.concat(M.status_lines(), '\n'))
end

return M
