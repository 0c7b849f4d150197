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
-- Restarts: attempts in a row, the total, whether one is pending, whether
-- the daemon is being stopped on purpose.
M.restarts = { attempts = 0, total = 0, pending = false, stopping = false, started = 0 }
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
  M.buffers[bufnr] = true
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
  return id
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

function M.on_exit(code, signal, _)
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
    if uv.now() - M.restarts.started > 30000 then
      M.restarts.attempts = 0
    end
    local delay = M.backoff(M.restarts.attempts)
    M.restarts.attempts = M.restarts.attempts + 1
    M.restarts.pending = true
    M.log_message(('restarting the daemon in %d ms'):format(delay))
    vim.defer_fn(M.restart, delay)
  end)
end

-- Starts the daemon again with every buffer it had.
function M.restart()
  M.restarts.pending = false
  if M.running() then
    return
  end
  local attached = false
  for bufnr in pairs(M.buffers) do
    if vim.api.nvim_buf_is_loaded(bufnr) then
      attached = M.attach(bufnr) ~= nil or attached
    else
      M.buffers[bufnr] = nil
    end
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
  vim.wait(2000, function()
    return M.call(client, 'is_stopped')
  end, 10)
  if not M.call(client, 'is_stopped') then
    M.call(client, 'stop', true)
  end
  M.buffers = {}
  -- on_exit (scheduled when the process ends) sees the flag and clears it.
  vim.wait(1000, function()
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
