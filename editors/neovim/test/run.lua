-- Runs the plugin's tests in a real Neovim against the real daemon:
--
--   BIDI_LSP=/path/to/bidi-lsp BIDI_TEST_LOG=/tmp/nvim-tests.txt \
--     nvim --headless -u NONE -i NONE -n -S editors/neovim/test/run.lua
--
-- Each test/test_*.lua returns a table of test functions; each runs in a
-- fresh buffer, and fails on an error (the helpers' asserts raise one). A
-- test calls helpers.skip(reason) when what it checks cannot be checked
-- here. Writes one line per test and "nvim: N passed, M failed, K skipped"
-- to $BIDI_TEST_LOG (default: stdout); exits 1 when a test failed.
local here = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h')
local root = vim.fn.fnamemodify(here, ':h')
vim.opt.runtimepath:prepend(root)
vim.opt.more = false
vim.o.encoding = 'utf-8'
vim.cmd('filetype on')
vim.cmd('runtime plugin/bidi_lsp.lua')

local log = os.getenv('BIDI_TEST_LOG')
if log and log ~= '' then
  vim.fn.writefile({}, log)
end
local function say(line)
  if log and log ~= '' then
    vim.fn.writefile({ line }, log, 'a')
  else
    io.stdout:write(line .. '\n')
  end
end

local passed, failed, skipped = 0, 0, 0
local ok, err = pcall(function()
  local helpers = dofile(here .. '/helpers.lua')
  helpers.root = root
  _G.bidi_test_helpers = helpers
  if vim.fn.executable(helpers.daemon()) ~= 1 then
    error('the daemon is not executable: ' .. helpers.daemon())
  end
  local tests = {}
  for _, file in ipairs(vim.fn.sort(vim.fn.glob(here .. '/test_*.lua', false, true))) do
    for name, fn in pairs(dofile(file)) do
      tests[#tests + 1] = { name = name, fn = fn }
    end
  end
  table.sort(tests, function(a, b) return a.name < b.name end)
  local filter = os.getenv('BIDI_TEST_FILTER') or ''
  for _, test in ipairs(tests) do
    if filter == '' or test.name:match(filter) then
      helpers.reset()
      local test_ok, test_err = xpcall(test.fn, debug.traceback)
      test_err = tostring(test_err)
      local reason = test_err:match('SKIP: ([^\n]*)')
      if test_ok then
        passed = passed + 1
        say('ok    ' .. test.name)
      elseif reason then
        skipped = skipped + 1
        say('skip  ' .. test.name .. ': ' .. reason)
      else
        failed = failed + 1
        say('FAIL  ' .. test.name)
        for line in test_err:gmatch('[^\n]+') do
          say('      ' .. line)
        end
      end
    end
  end
  helpers.finish()
end)
if not ok then
  failed = failed + 1
  say('nvim: the test run broke: ' .. tostring(err))
end
say(('nvim: %d passed, %d failed, %d skipped'):format(passed, failed, skipped))
vim.cmd(failed > 0 and 'cquit' or 'qall!')
