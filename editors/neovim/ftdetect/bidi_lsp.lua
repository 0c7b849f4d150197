-- bidi-lsp: filetypes of localization files that Neovim does not know:
-- Apple .strings, .stringsdict (an XML property list), .xcstrings (a String
-- Catalog, JSON) and Flutter .arb (JSON). The names are the languageIds the
-- daemon recognises; syntax/ gives them the highlighting of what they are.
-- Subtitles: Neovim 0.7 knows neither .srt nor .vtt; later versions call
-- them srt and webvtt, as this does (webvtt is sent as languageId vtt).
local extensions = {
  strings = 'strings', stringsdict = 'stringsdict', xcstrings = 'xcstrings', arb = 'arb',
  srt = 'srt', vtt = 'webvtt',
}

if vim.fn.has('nvim-0.8') == 1 then
  vim.filetype.add({ extension = extensions })
else
  -- Neovim 0.7 detects filetypes with filetype.vim, which sources this file
  -- inside its augroup.
  for extension, filetype in pairs(extensions) do
    vim.cmd(('autocmd BufNewFile,BufRead *.%s setfiletype %s'):format(extension, filetype))
  end
end
