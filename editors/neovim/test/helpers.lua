-- Helpers of the Neovim plugin's tests (loaded by run.lua).
local M = {}

M.LRM, M.RLM, M.RLO = '\u{200e}', '\u{200f}', '\u{202e}'
M.LRI, M.FSI, M.PDI = '\u{2066}', '\u{2068}', '\u{2069}'

local api = vim.api

function M.daemon()
  local daemon = os.getenv('BIDI_LSP')
  if daemon and daemon ~= '' then
    return daemon
  end
  return vim.fn.fnamemodify(M.root, ':h:h') .. '/.build/release/bidi-lsp'
end

-- The log of the tap (editors/bench/lsp_tap.py) the daemon runs behind.
M.tap_log = vim.fn.tempname()

function M.options(extra)
  local tap = vim.fn.fnamemodify(M.root, ':h') .. '/bench/lsp_tap.py'
  return vim.tbl_deep_extend('force', {
    cmd = { 'python3', tap, M.tap_log, '--', M.daemon() },
    filetypes = {}, timeout = 10000, margin = 50, auto_direction = false,
  }, extra or {})
end

function M.setup(extra)
  require('bidi_lsp').setup(M.options(extra))
end

function M.reset()
  pcall(vim.cmd, 'silent! only!')
  vim.cmd('enew!')
  -- A buffer edited while the daemon was down is no longer tracked by
  -- Neovim, which then keeps a stale entry for it if it is wiped (and fails
  -- on it when a client stops): such buffers are only hidden.
  local untracked = require('bidi_lsp.client').untracked
  for _, bufnr in ipairs(api.nvim_list_bufs()) do
    if bufnr ~= api.nvim_get_current_buf() then
      if untracked[bufnr] then
        vim.bo[bufnr].buflisted = false
      else
        pcall(vim.cmd, 'silent! bwipeout! ' .. bufnr)
      end
    end
  end
  M.setup()
  vim.cmd('enew!')
  vim.wo.rightleft = false
  vim.bo.bufhidden = 'wipe'
  vim.o.arabicshape = true
  vim.g.bidi_lsp_last_cmdline = ''
end

function M.finish()
  require('bidi_lsp').stop()
end

function M.fail(message, level)
  error(message, (level or 1) + 1)
end

function M.skip(reason)
  error('SKIP: ' .. reason, 0)
end

function M.eq(expected, actual, what)
  if not vim.deep_equal(expected, actual) then
    M.fail(('%sexpected %s, got %s'):format(what and (what .. ': ') or '', vim.inspect(expected),
      vim.inspect(actual)), 2)
  end
end

function M.ok(condition, what)
  if not condition then
    M.fail('not true: ' .. (what or '?'), 2)
  end
end

function M.matches(pattern, text, what)
  if not tostring(text):find(pattern) then
    M.fail(('%s%q does not match %q'):format(what and (what .. ': ') or '', text, pattern), 2)
  end
end

function M.wait_for(condition, what, timeout)
  if not vim.wait(timeout or 10000, condition, 10) then
    M.fail('timed out waiting for ' .. what, 2)
  end
end

-- A new buffer holding {lines} (with {filetype}), attached and ready.
function M.open(lines, filetype)
  vim.cmd('edit ' .. vim.fn.fnameescape(vim.fn.tempname() .. '.txt'))
  api.nvim_buf_set_lines(0, 0, -1, false, lines)
  if filetype then
    vim.bo.filetype = filetype
  end
  local bufnr = api.nvim_get_current_buf()
  require('bidi_lsp.client').ready(bufnr)
  return bufnr
end

function M.client()
  return require('bidi_lsp.client').get()
end

-- The daemon's copy of buffer {bufnr} equals its text.
function M.assert_in_sync(bufnr)
  local info = require('bidi_lsp').request(bufnr, 'bidi/documentInfo',
    { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, includeText = true })
  local lines = api.nvim_buf_get_lines(bufnr, 0, -1, false)
  M.eq(table.concat(lines, '\n') .. '\n', info.text, 'the daemon\'s copy')
end

-- The tap's log lines written whole so far: the tap may be writing the
-- last one while it is read, so a last line without its line feed is left
-- for the next read.
local function logged_lines()
  local lines = vim.fn.readfile(M.tap_log, 'b')
  -- In binary mode a log that ends with a line feed ends with '', and one
  -- cut in the middle of a line ends with that line's start.
  table.remove(lines)
  return lines
end

-- Marks the tap's log: Sent() then only looks at what comes after.
function M.record()
  M.mark = #logged_lines()
end

-- The messages the editor sent with {method} since M.record().
function M.sent(method)
  local result = {}
  local lines = logged_lines()
  for i = (M.mark or 0) + 1, #lines do
    local entry = vim.fn.json_decode(lines[i])
    if entry.from == 'editor' and entry.message.method == method then
      table.insert(result, entry.message)
    end
  end
  return result
end

function M.wait_for_view(bufnr)
  M.wait_for(function()
    return not require('bidi_lsp.view').busy(bufnr)
  end, 'the view refresh')
end

-- Runs Ex command {command} and returns what it printed.
function M.output(command)
  return api.nvim_exec(command, true)
end

return M
