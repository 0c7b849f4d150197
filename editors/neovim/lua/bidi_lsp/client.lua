-- bidi-lsp: the daemon as a client of Neovim's built-in LSP, across versions:
-- vim.lsp.start_client() + vim.lsp.buf_attach_client() on 0.7, vim.lsp.start()
-- from 0.8 (it reuses the running client), methods called client:method()
-- from 0.11 (client.method() before), vim.lsp.get_clients() from 0.10.
-- When the daemon dies, it is started again after a back-off (250 ms
-- doubling to 30 s) and every buffer it had is opened in it again.
local config = require('bidi_lsp.config')

local M = {}

local uv = vim.loop or vim.uv
local has_colon_methods = vim.fn.has('nvim-0.11') == 1

-- Buffers attached (and to attach again after a restart): bufnr -> true.
M.buffers = {}
-- The id of the client the buffers are attached to; nil from the moment
-- the daemon dies until the next one is attached.
M.current_id = nil
-- Buffers edited while no client was attached: Neovim then stops tracking
-- their changes for good (its on_lines detaches), so the plugin sends them.
M.untracked = {}
local tracked = {}
-- Restarts: attempts in a row, the total, whether one is pending, whether
-- the daemon is being stopped on purpose.
M.restarts = { attempts = 0, total = 0, pending = false, stopping = false, started = 0 }
-- Restarts in a row before the plugin gives up (editors/README.md, "One policy").
M.restart_attempts = 5
-- The plugin's own messages and the daemon's (window/logMessage).
M.log = {}

function M.log_message(text)
  table.insert(M.log, text)
  if #M.log > 200 then
    table.remove(M.log, 1)
  end
end

-- The last {count} messages (all of them when there are fewer).
function M.messages(count)
  count = count or #M.log
  return vim.list_slice(M.log, math.max(1, #M.log - count + 1), #M.log)
end

-- Calls client method {name} the way this Neovim wants it.
function M.call(client, name, ...)
  if has_colon_methods then
    return client[name](client, ...)
  end
  return client[name](...)
end

local function clients()
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ name = 'bidi_lsp' })
  end
  return vim.tbl_filter(function(c)
    return c.name == 'bidi_lsp'
  end, vim.lsp.get_active_clients())
end

-- The running client, or nil.
function M.get()
  for _, client in ipairs(clients()) do
    if not M.call(client, 'is_stopped') then
      return client
    end
  end
  return nil
end

function M.running()
  local client = M.get()
  return client ~= nil and client.initialized == true
end

-- The delay before restart number {attempt} (0-based), in milliseconds.
function M.backoff(attempt)
  return math.min(250 * 2 ^ math.min(attempt, 8), 30000)
end

-- Attaches buffer {bufnr}, starting the daemon if needed. Returns the client
-- id, or nil (with a message) when it cannot start.
function M.attach(bufnr)
  if bufnr == 0 then
    bufnr = vim.api.nvim_get_current_buf()
  end
  if vim.fn.executable(config.command()[1]) ~= 1 then
    vim.notify('bidi-lsp: cannot run ' .. vim.inspect(config.command()) .. ' (set cmd in setup())',
      vim.log.levels.ERROR)
    return nil
  end
  if vim.api.nvim_buf_get_name(bufnr) == '' then
    -- Neovim's LSP client names a document by its file: every unnamed
    -- buffer would be the same document ("file://").
    vim.notify('bidi-lsp: the buffer has no name; give it one (:file NAME) to use bidi-lsp',
      vim.log.levels.WARN)
    return nil
  end
  M.buffers[bufnr] = true
  M.track(bufnr)
  local id
  if vim.lsp.start then
    id = vim.lsp.start(config.lsp_config(), { bufnr = bufnr })
  else
    local client = M.get()
    id = client and client.id or vim.lsp.start_client(config.lsp_config())
    if id then
      vim.lsp.buf_attach_client(bufnr, id)
    end
  end
  M.current_id = id or M.current_id
  return id
end

-- Sends the changes of an untracked buffer: lines {first} .. {last}
-- (0-based, end exclusive) replaced by lines {first} .. {new_last}, as one
-- didChange of whole lines (the daemon's copy ends with a newline); the
-- whole text when {last} is nil.
local function send_change(bufnr, tick, first, last, new_last)
  local client = M.current_id and vim.lsp.get_client_by_id(M.current_id)
  if not client or not client.initialized then
    return
  end
  local lines = vim.api.nvim_buf_get_lines(bufnr, first, new_last, false)
  local change = { text = #lines > 0 and (table.concat(lines, '\n') .. '\n') or '' }
  if last then
    change.range = { start = { line = first, character = 0 }, ['end'] = { line = last, character = 0 } }
  end
  M.call(client, 'notify', 'textDocument/didChange', {
    textDocument = { uri = vim.uri_from_bufnr(bufnr), version = tick },
    contentChanges = { change },
  })
end

-- Watches buffer {bufnr}'s changes: one made while no client is attached
-- makes it untracked by Neovim; the plugin sends its changes from then on.
function M.track(bufnr)
  if tracked[bufnr] then
    return
  end
  tracked[bufnr] = true
  vim.api.nvim_buf_attach(bufnr, false, {
    on_lines = function(_, buf, tick, first, last, new_last)
      if not M.buffers[buf] then
        tracked[buf] = nil
        return true
      end
      if M.current_id == nil then
        M.untracked[buf] = true
      elseif M.untracked[buf] then
        send_change(buf, tick, first, last, new_last)
      end
    end,
    on_reload = function(_, buf)
      if M.untracked[buf] then
        send_change(buf, vim.api.nvim_buf_get_changedtick(buf), 0, nil, -1)
      end
    end,
    on_detach = function(_, buf)
      tracked[buf] = nil
      M.untracked[buf] = nil
    end,
  })
end

-- Waits until the client of buffer {bufnr} is initialized; returns it.
function M.ready(bufnr, timeout)
  local id = M.attach(bufnr)
  if not id then
    error('bidi-lsp: the daemon did not start', 0)
  end
  local ok = vim.wait(timeout or config.options.timeout, function()
    local client = vim.lsp.get_client_by_id(id)
    return client ~= nil and client.initialized == true
  end, 5)
  local client = vim.lsp.get_client_by_id(id)
  if not ok or not client then
    error('bidi-lsp: the daemon did not initialize', 0)
  end
  return client
end

function M.on_init(client, result)
  local encoding = (result.capabilities or {}).positionEncoding or 'utf-16'
  if encoding ~= 'utf-8' then
    M.log_message('the daemon chose ' .. encoding .. ' positions; the plugin needs utf-8')
  end
  client.offset_encoding = encoding
  M.server_info = result.serverInfo or {}
  M.restarts.started = uv.now()
end

-- window/logMessage and window/showMessage: kept for :BidiStatus.
function M.on_log_message(_, params)
  M.log_message(params.message)
end

function M.on_attach(_, bufnr)
  M.buffers[bufnr] = true
  require('bidi_lsp.view').attach(bufnr)
end

function M.on_exit(code, signal, client_id)
  -- Called in a loop callback, before Neovim forgets the client: only Lua here.
  if client_id == M.current_id then
    M.current_id = nil
  end
  vim.schedule(function()
    M.log_message(('daemon exited with status %d, signal %d'):format(code or -1, signal or 0))
    require('bidi_lsp.view').forget_requests()
    if M.restarts.stopping then
      M.restarts.stopping = false
      return
    end
    if not config.options.restart then
      return
    end
    -- The restart policy of every plugin (editors/README.md): a daemon that
    -- ran a minute starts the count again; five restarts in a row at most.
    if uv.now() - M.restarts.started > 60000 then
      M.restarts.attempts = 0
    end
    if M.restarts.attempts >= M.restart_attempts then
      M.log_message(('the daemon died %d times in a row; :BidiStart starts it'):format(M.restarts.attempts))
      vim.notify(('bidi-lsp: the daemon died %d times in a row; :BidiStart starts it'):format(M.restarts.attempts),
        vim.log.levels.WARN)
      M.restarts.attempts = 0
      return
    end
    local delay = M.backoff(M.restarts.attempts)
    M.restarts.attempts = M.restarts.attempts + 1
    M.log_message(('restarting the daemon in %d ms'):format(delay))
    M.restart(delay)
  end)
end

-- Starts the daemon again with every buffer it had, the new process after
-- {delay} ms. The new client is attached at once: Neovim stops tracking the
-- changes of a buffer edited while no client is attached to it, so the
-- back-off is a pause before the process starts (sh -c 'sleep'), while
-- Neovim already holds the client, its didOpen and the changes since.
function M.restart(delay)
  if M.running() then
    return
  end
  local command, log_file = config.options.cmd, config.options.log_file
  if delay and delay > 0 and vim.fn.executable('sh') == 1 then
    local cmd = config.command()
    config.options.cmd = vim.list_extend({ 'sh', '-c', ('sleep %.3f; exec "$0" "$@"'):format(delay / 1000) }, cmd)
    config.options.log_file = nil
  end
  local attached = false
  local ok, err = pcall(function()
    for bufnr in pairs(M.buffers) do
      if vim.api.nvim_buf_is_loaded(bufnr) then
        attached = M.attach(bufnr) ~= nil or attached
      else
        M.buffers[bufnr] = nil
      end
    end
  end)
  config.options.cmd, config.options.log_file = command, log_file
  if not ok then
    M.log_message(tostring(err))
  end
  if attached then
    M.restarts.total = M.restarts.total + 1
    M.log_message('daemon restarted')
  end
end

-- Shuts the daemon down; no restart follows.
function M.stop()
  local client = M.get()
  if not client then
    return
  end
  M.restarts.stopping = true
  M.call(client, 'stop')
  -- (pcall: Neovim 0.7's own callbacks may fail meanwhile on wiped buffers.)
  pcall(vim.wait, 2000, function()
    return M.call(client, 'is_stopped')
  end, 10)
  if not M.call(client, 'is_stopped') then
    M.call(client, 'stop', true)
  end
  M.buffers = {}
  -- on_exit (scheduled when the process ends) sees the flag and clears it.
  pcall(vim.wait, 1000, function()
    return not M.restarts.stopping
  end, 10)
  M.restarts.stopping = false
end

-- Sends a request about buffer {bufnr} and waits for its result. Errors with
-- 'bidi-lsp: ...' on an error answer or a timeout.
function M.request(bufnr, method, params)
  local client = M.ready(bufnr)
  local answer, err = M.call(client, 'request_sync', method, params, config.options.timeout, bufnr)
  if not answer then
    error(('bidi-lsp: %s %s'):format(method, err or 'failed'), 0)
  end
  if answer.err then
    error(('bidi-lsp: %s: %s'):format(method, answer.err.message or vim.inspect(answer.err)), 0)
  end
  return answer.result
end

-- Sends a request; calls callback(result) when it is answered (errors other
-- than a cancellation are logged). Returns the request's id, or nil.
function M.request_async(bufnr, method, params, callback)
  local client = M.get()
  if not client or not client.initialized then
    return nil
  end
  local ok, id = M.call(client, 'request', method, params, function(err, result)
    if err then
      if err.code ~= -32800 then
        M.log_message(method .. ': ' .. (err.message or ''))
      end
      return
    end
    callback(result)
  end, bufnr)
  return ok and id or nil
end

function M.cancel(id)
  local client = M.get()
  if client and id then
    M.call(client, 'cancel_request', id)
  end
end

return M
