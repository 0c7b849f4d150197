" bidi-lsp: filetypes of localization files that Vim 9.0 does not know.
" Apple .strings, .stringsdict (an XML property list), .xcstrings (a String
" Catalog, JSON) and Flutter .arb (JSON). The names are the languageIds the
" daemon recognises; syntax/ gives them the highlighting of what they are.
autocmd BufNewFile,BufRead *.strings setfiletype strings
autocmd BufNewFile,BufRead *.stringsdict setfiletype stringsdict
autocmd BufNewFile,BufRead *.xcstrings setfiletype xcstrings
autocmd BufNewFile,BufRead *.arb setfiletype arb
" Subtitles: Vim 9.0 knows .srt (srt) but not WebVTT; later Vims call .vtt
" files webvtt, as this does (sent to the daemon as languageId vtt).
autocmd BufNewFile,BufRead *.srt setfiletype srt
autocmd BufNewFile,BufRead *.vtt setfiletype webvtt
