-- bidi-lsp for Neovim 0.11's vim.lsp.config / vim.lsp.enable:
--
--   vim.lsp.enable('bidi_lsp')
--
-- The same configuration the plugin starts the daemon with (the options of
-- require('bidi_lsp').setup()), so that the plugin's commands, visible-range
-- hints, auto direction and crash restarts work on the client Neovim starts.
return require('bidi_lsp.config').lsp_config()
