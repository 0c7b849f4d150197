-- bidi-lsp: what the plugin asks by itself, only for the lines the user can
-- see. When a buffer is shown, scrolled or edited, one refresh is scheduled
-- (debounced after edits); it asks for the inlay hints of the visible lines
-- plus a margin, and, with auto direction, for the visual order of the
-- visible lines. A refresh cancels the one still in flight, and an answer
-- for an older version of the buffer is dropped.
local config = require('bidi_lsp.config')
local client = require('bidi_lsp.client')

local M = {}

local api = vim.api
local uv = vim.loop or vim.uv

-- The largest range the plugin asks for by itself, in lines.
M.max_lines = 1000

-- bufnr -> uv timer of the scheduled refresh.
local timers = {}
-- bufnr -> { hints = {ids}, direction = {ids} }: the requests in flight.
local inflight = {}

-- The windows of the current tab page that show buffer {bufnr}.
local function windows(bufnr)
  return vim.tbl_filter(function(winid)
    return api.nvim_win_get_buf(winid) == bufnr
  end, api.nvim_tabpage_list_wins(0))
end

-- The 1-based span {first, last} window {winid} shows, grown by {margin}
-- lines each way, clamped to the buffer and to M.max_lines.
function M.window_lines(winid, margin)
  local count = api.nvim_buf_line_count(api.nvim_win_get_buf(winid))
  local top, bottom = unpack(api.nvim_win_call(winid, function()
    return { vim.fn.line('w0'), vim.fn.line('w$') }
  end))
  local first = math.max(1, top - margin)
  local last = math.min(count, bottom + margin, first + M.max_lines - 1)
  return { first, math.max(first, last) }
end

-- The visible spans of buffer {bufnr} (with the margin), merged where they
-- overlap.
function M.visible_spans(bufnr)
  local spans = {}
  for _, winid in ipairs(windows(bufnr)) do
    table.insert(spans, M.window_lines(winid, config.options.margin))
  end
  table.sort(spans, function(a, b)
    return a[1] < b[1]
  end)
  local merged = {}
  for _, span in ipairs(spans) do
    local last = merged[#merged]
    if last and span[1] <= last[2] + 1 and math.max(span[2], last[2]) - last[1] < M.max_lines then
      last[2] = math.max(span[2], last[2])
    else
      table.insert(merged, { span[1], span[2] })
    end
  end
  return merged
end

function M.lines_range(first, last)
  return { start = { line = first - 1, character = 0 }, ['end'] = { line = last, character = 0 } }
end

-- ------------------------------------------------------------- schedule --

local function version(bufnr)
  return api.nvim_buf_get_changedtick(bufnr)
end

function M.attach(bufnr)
  local group = api.nvim_create_augroup('bidi_lsp_view_' .. bufnr, { clear = true })
  api.nvim_create_autocmd('BufWinEnter', {
    group = group, buffer = bufnr,
    callback = function() M.schedule(bufnr, 0) end,
  })
  api.nvim_create_autocmd({ 'TextChanged', 'TextChangedI' }, {
    group = group, buffer = bufnr,
    callback = function() M.schedule(bufnr, config.options.debounce) end,
  })
  api.nvim_create_autocmd('InsertLeave', {
    group = group, buffer = bufnr,
    callback = function() M.schedule(bufnr, 0) end,
  })
  api.nvim_create_autocmd('BufUnload', {
    group = group, buffer = bufnr,
    callback = function()
      client.buffers[bufnr] = nil
      M.detach(bufnr)
    end,
  })
  if config.options.builtin_inlay_hints and vim.lsp.inlay_hint then
    vim.lsp.inlay_hint.enable(true, { bufnr = bufnr })
  end
  M.schedule(bufnr, 0)
end

function M.detach(bufnr)
  M.cancel(bufnr)
  if timers[bufnr] then
    timers[bufnr]:stop()
    timers[bufnr]:close()
    timers[bufnr] = nil
  end
  pcall(api.nvim_del_augroup_by_name, 'bidi_lsp_view_' .. bufnr)
  require('bidi_lsp.hints').clear(bufnr)
end

-- After window {winid} scrolled or was resized.
function M.on_scroll(winid)
  if api.nvim_win_is_valid(winid) then
    local bufnr = api.nvim_win_get_buf(winid)
    if client.buffers[bufnr] then
      M.schedule(bufnr, 50)
    end
  end
end

-- Schedules one refresh of buffer {bufnr} in {delay} ms, replacing one
-- already scheduled (debouncing).
function M.schedule(bufnr, delay)
  local timer = timers[bufnr]
  if not timer then
    timer = uv.new_timer()
    timers[bufnr] = timer
  end
  timer:stop()
  timer:start(delay, 0, vim.schedule_wrap(function()
    if timers[bufnr] == timer then
      timer:close()
      timers[bufnr] = nil
    end
    local ok, err = pcall(M.refresh, bufnr)
    if not ok then
      client.log_message(tostring(err))
    end
  end))
end

-- Whether a refresh of {bufnr} is scheduled or in flight.
function M.busy(bufnr)
  local requests = inflight[bufnr] or {}
  return timers[bufnr] ~= nil or #(requests.hints or {}) > 0 or #(requests.direction or {}) > 0
end

function M.cancel(bufnr, kind)
  local requests = inflight[bufnr] or {}
  for _, k in ipairs(kind and { kind } or { 'hints', 'direction' }) do
    for _, id in ipairs(requests[k] or {}) do
      client.cancel(id)
    end
    requests[k] = {}
  end
  inflight[bufnr] = requests
end

-- The daemon died: its requests will never be answered.
function M.forget_requests()
  inflight = {}
end

-- Sends an async request; callback(result) runs only if it was not
-- superseded and the buffer has not changed since.
local function request(bufnr, kind, method, params, callback)
  local sent_version = version(bufnr)
  local box = {}
  box.id = client.request_async(bufnr, method, params, function(result)
    local ids = (inflight[bufnr] or {})[kind] or {}
    local index = box.id and vim.fn.index(ids, box.id) or -1
    if index < 0 then
      return
    end
    table.remove(ids, index + 1)
    if api.nvim_buf_is_loaded(bufnr) and version(bufnr) == sent_version then
      callback(result)
    end
  end)
  if box.id then
    inflight[bufnr] = inflight[bufnr] or {}
    inflight[bufnr][kind] = inflight[bufnr][kind] or {}
    table.insert(inflight[bufnr][kind], box.id)
  end
end

-- -------------------------------------------------------------- refresh --

local function auto_mode()
  local value = config.options.auto_direction
  if value == 'lines' or value == 'majority' then
    return value
  end
  return value == true and 'lines' or nil
end

local function direction_request(mode, bufnr, first, last)
  local params = { textDocument = vim.lsp.util.make_text_document_params(bufnr), range = M.lines_range(first, last) }
  if mode == 'majority' then
    return 'bidi/naturalDirection', params
  end
  params.include = { 'runs' }
  return 'bidi/visualOrder', params
end

-- Asks for what buffer {bufnr} shows now.
function M.refresh(bufnr)
  if not api.nvim_buf_is_loaded(bufnr) or not client.running() then
    return
  end
  local hints = require('bidi_lsp.hints')
  if hints.enabled(bufnr) then
    M.cancel(bufnr, 'hints')
    for _, span in ipairs(M.visible_spans(bufnr)) do
      request(bufnr, 'hints', 'textDocument/inlayHint',
        { textDocument = vim.lsp.util.make_text_document_params(bufnr), range = M.lines_range(span[1], span[2]) },
        function(result)
          hints.show(bufnr, span, result)
        end)
    end
  end
  local mode = auto_mode()
  if mode then
    M.cancel(bufnr, 'direction')
    for _, winid in ipairs(windows(bufnr)) do
      local span = M.window_lines(winid, 0)
      local method, params = direction_request(mode, bufnr, span[1], span[2])
      request(bufnr, 'direction', method, params, function(result)
        M.set_rightleft(winid, M.direction_of(mode, result))
      end)
    end
  end
end

-- ------------------------------------------------------------ direction --

-- The direction of most paragraphs with a strong character (the first of
-- them on a tie), else nil.
function M.majority(paragraphs)
  local count = { ltr = 0, rtl = 0 }
  local first
  for _, paragraph in ipairs(paragraphs) do
    if paragraph.basis ~= 'fallback' then
      count[paragraph.direction] = count[paragraph.direction] + 1
      first = first or paragraph.direction
    end
  end
  if count.ltr == count.rtl then
    return first
  end
  return count.rtl > count.ltr and 'rtl' or 'ltr'
end

-- The direction the rule {mode} gives for an answer:
--   lines: 'rtl' only when 'rightleft' shows every line right: every visible
--   line is empty or displays wholly right to left (all its runs at level
--   1), and some line has text; otherwise 'ltr', which never mirrors a Latin
--   word or a number (see :help bidi-lsp-auto-direction);
--   majority: the direction of most lines with a strong character.
function M.direction_of(mode, result)
  if mode == 'majority' then
    return M.majority(result.paragraphs)
  end
  local text = false
  for _, paragraph in ipairs(result.paragraphs) do
    for _, line in ipairs(paragraph.lines) do
      for _, run in ipairs(line.runs or {}) do
        if run.level ~= 1 then
          return 'ltr'
        end
        text = true
      end
    end
  end
  return text and 'rtl' or 'ltr'
end

function M.set_rightleft(winid, direction)
  if not direction or not api.nvim_win_is_valid(winid) then
    return
  end
  local rightleft = direction == 'rtl'
  if vim.wo[winid].rightleft ~= rightleft then
    vim.wo[winid].rightleft = rightleft
    require('bidi_lsp.hints').orient(api.nvim_win_get_buf(winid))
  end
end

-- Sets window {winid}'s 'rightleft' now from the lines it shows, with the
-- auto-direction rule in force ('lines' when it is off). Returns the
-- direction set, or nil.
function M.apply_direction(winid)
  local mode = auto_mode() or 'lines'
  local bufnr = api.nvim_win_get_buf(winid)
  local span = M.window_lines(winid, 0)
  local method, params = direction_request(mode, bufnr, span[1], span[2])
  local direction = M.direction_of(mode, client.request(bufnr, method, params))
  M.set_rightleft(winid, direction)
  return direction
end

return M
