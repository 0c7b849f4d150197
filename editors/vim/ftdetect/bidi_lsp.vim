" bidi-lsp: filetypes of localization files that Vim 9.0 does not know.
" Apple .strings, .stringsdict (an XML property list), .xcstrings (a String
" Catalog, JSON) and Flutter .arb (JSON). The names are the languageIds the
" daemon recognises; syntax/ gives them the highlighting of what they are.
autocmd BufNewFile,BufRead *.strings setfiletype strings
autocmd BufNewFile,BufRead *.stringsdict setfiletype stringsdict
autocmd BufNewFile,BufRead *.xcstrings setfiletype xcstrings
autocmd BufNewFile,BufRead *.arb setfiletype arb
