-- bidi-lsp: the options, and the LSP client configuration built from them.
local M = {}

M.defaults = {
  -- The daemon: a program and its arguments.
  cmd = { 'bidi-lsp' },
  -- Filetypes whose buffers are attached when their filetype is set ('*': all).
  filetypes = {
    'text', 'markdown', 'gitcommit', 'mail', 'rst', 'asciidoc', 'tex',
    'po', 'strings', 'stringsdict', 'xcstrings', 'arb', 'jproperties', 'srt', 'webvtt',
  },
  -- false, 'lines' (true) or 'majority': see :help bidi-lsp-auto-direction.
  auto_direction = false,
  -- The daemon's settings (initializationOptions.bidi).
  settings = {},
  -- Show the invisible bidi controls by name.
  inlay_hints = true,
  -- On Neovim 0.10+, use vim.lsp.inlay_hint instead of the plugin's own
  -- hints (it asks for the whole buffer on every change).
  builtin_inlay_hints = false,
  -- :BidiVisual joins Arabic letters (the daemon's "shape": true, the
  -- Arabic Presentation Forms): the window turns 'arabicshape' off, so
  -- Neovim does not join them there. false: the letters as stored.
  visual_shape = true,
  -- Lines above and below the window asked for with the visible lines.
  margin = 50,
  -- Milliseconds after the last edit before the visible lines are asked again.
  debounce = 150,
  -- Milliseconds a command waits for the daemon.
  timeout = 5000,
  -- Restart the daemon (with a back-off) when it dies.
  restart = true,
  -- When set, the daemon writes its log there.
  log_file = nil,
}

M.options = vim.deepcopy(M.defaults)

function M.set(options)
  M.options = vim.tbl_deep_extend('force', vim.deepcopy(M.defaults), options or {})
end

-- LSP languageIds for the filetypes that differ; the localization formats
-- (strings, stringsdict, xcstrings, arb, po, jproperties) go as they are.
local language_ids = {
  [''] = 'plaintext', text = 'plaintext', sh = 'shellscript', bash = 'shellscript',
  zsh = 'shellscript', objc = 'objective-c', objcpp = 'objective-cpp', cs = 'csharp',
  webvtt = 'vtt',
}

function M.language_id(filetype)
  return language_ids[filetype] or filetype
end

local localization = {
  strings = true, stringsdict = true, xcstrings = true, arb = true, po = true,
  jproperties = true, xliff = true, resx = true,
}

-- Filetypes of the other structured documents (contract §8): Markdown,
-- whose paragraphs are rendered blocks, and subtitles, whose paragraphs are
-- cue lines.
local documents = { markdown = true, srt = true, webvtt = true }

-- Whether the daemon reads buffer {bufnr} as a structured document
-- (localization, Markdown, subtitles): commands act on the value, block or
-- cue line under the cursor there, not on whole lines.
function M.is_structured(bufnr)
  return documents[vim.bo[bufnr].filetype] or M.is_localization(bufnr)
end

-- Whether buffer {bufnr} is a localization file: commands act on the value
-- under the cursor there, not on whole lines.
function M.is_localization(bufnr)
  local filetype = vim.bo[bufnr].filetype
  if localization[filetype] then
    return true
  end
  local name = vim.api.nvim_buf_get_name(bufnr):lower()
  if name:match('%.xlf$') or name:match('%.xliff$') or name:match('%.resx$')
      or name:match('%.properties$') or name:match('%.pot$') then
    return true
  end
  return filetype == 'xml' and name:match('/values[^/]*/[^/]*%.xml$') ~= nil
end

function M.command()
  local cmd = M.options.cmd
  cmd = type(cmd) == 'string' and { cmd } or vim.deepcopy(cmd)
  if M.options.log_file then
    vim.list_extend(cmd, { '--log-file', M.options.log_file })
  end
  return cmd
end

function M.capabilities()
  local capabilities = vim.lsp.protocol.make_client_capabilities()
  capabilities.general = capabilities.general or {}
  -- Neovim's columns are bytes: ask for utf-8 positions.
  capabilities.general.positionEncodings = { 'utf-8' }
  return capabilities
end

-- The configuration of the client: for vim.lsp.start(), vim.lsp.start_client()
-- and 0.11's vim.lsp.config (lsp/bidi_lsp.lua).
function M.lsp_config()
  local filetypes = M.options.filetypes
  return {
    name = 'bidi_lsp',
    cmd = M.command(),
    filetypes = vim.tbl_contains(filetypes, '*') and nil or filetypes,
    capabilities = M.capabilities(),
    init_options = { bidi = vim.tbl_isempty(M.options.settings) and vim.empty_dict() or M.options.settings },
    offset_encoding = 'utf-8',
    get_language_id = function(_, filetype)
      return M.language_id(filetype)
    end,
    handlers = {
      ['textDocument/publishDiagnostics'] = function(...)
        return require('bidi_lsp.diagnostics').on_publish(...)
      end,
      ['window/logMessage'] = function(...)
        return require('bidi_lsp.client').on_log_message(...)
      end,
      ['window/showMessage'] = function(...)
        return require('bidi_lsp.client').on_log_message(...)
      end,
    },
    on_init = function(client, result)
      return require('bidi_lsp.client').on_init(client, result)
    end,
    on_attach = function(client, bufnr)
      return require('bidi_lsp.client').on_attach(client, bufnr)
    end,
    on_exit = function(code, signal, client_id)
      return require('bidi_lsp.client').on_exit(code, signal, client_id)
    end,
  }
end

return M
