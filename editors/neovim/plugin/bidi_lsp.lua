-- bidi-lsp: right-to-left and mixed-direction text support for Neovim 0.7+.
-- Commands and autocommands only; everything else loads on first use
-- (lua/bidi_lsp/). Help: :help bidi-lsp
if vim.g.loaded_bidi_lsp or vim.fn.has('nvim-0.7') == 0 then
  return
end
vim.g.loaded_bidi_lsp = true

local function commands()
  return require('bidi_lsp.commands')
end

local command = vim.api.nvim_create_user_command
command('BidiStart', function() require('bidi_lsp').attach(0) end, {})
command('BidiStop', function() require('bidi_lsp').stop() end, {})
command('BidiStatus', function() commands().status_command() end, {})
command('BidiDirection', function(opts) commands().direction_command(opts) end, { range = true })
command('BidiVisual', function(opts) commands().visual_command(opts) end, { range = true })
command('BidiInfo', function(opts) commands().info_command(opts) end, { range = true })
command('BidiInsertMarks', function(opts) commands().insert_marks_command(opts) end, {
  range = true, nargs = '+',
  complete = function(arglead, cmdline) return commands().complete_modes(arglead, cmdline) end,
})
command('BidiStrip', function(opts) commands().strip_command(opts) end, { range = true, bang = true })
command('BidiSetDirection', function(opts) commands().set_direction_command(opts) end, {
  nargs = '?', complete = function() return { 'ltr', 'rtl' } end,
})
command('BidiFix', function(opts) commands().fix_command(opts) end, { range = true, bang = true })
command('BidiFixes', function(opts) commands().fixes_command(opts) end, { range = true })
command('BidiDiagnostics', function() commands().diagnostics_command() end, {})
command('BidiHints', function() require('bidi_lsp.hints').toggle(vim.api.nvim_get_current_buf()) end, {})

local map = vim.keymap.set
map('x', '<Plug>(bidi-isolate)', function() commands().visual_insert_marks('isolate') end, { silent = true })
map('x', '<Plug>(bidi-runs)', function() commands().visual_insert_marks('runs') end, { silent = true })
map('x', '<Plug>(bidi-placeholders)', function() commands().visual_insert_marks('placeholders') end, { silent = true })
map('n', '<Plug>(bidi-fix)', '<Cmd>BidiFix<CR>', { silent = true })
map('n', '<Plug>(bidi-visual)', '<Cmd>BidiVisual<CR>', { silent = true })

local group = vim.api.nvim_create_augroup('bidi_lsp', { clear = true })
local autocmd = vim.api.nvim_create_autocmd
autocmd('FileType', { group = group, callback = function(args) require('bidi_lsp').on_filetype(args.buf) end })
autocmd({ 'WinScrolled', 'VimResized' }, {
  group = group,
  callback = function(args)
    require('bidi_lsp.view').on_scroll(tonumber(args.match) or vim.api.nvim_get_current_win())
  end,
})
autocmd('OptionSet', {
  group = group, pattern = 'rightleft',
  callback = function() require('bidi_lsp.hints').orient(vim.api.nvim_get_current_buf()) end,
})
-- The commands tell ":'<,'>Bidi..." typed from Visual mode from a range.
autocmd('CmdlineLeave', {
  group = group, pattern = ':',
  callback = function() vim.g.bidi_lsp_last_cmdline = vim.fn.getcmdline() end,
})
