" bidi-lsp: right-to-left and mixed-direction text support for Vim.
" Talks to the bidi-lsp daemon over stdio (Vim's native 'lsp' channel mode).
" Maintainer: the bidi-lsp authors
" License:    same as bidi-lsp
" Help:       :help bidi-lsp

if exists('g:loaded_bidi_lsp') || &compatible
  finish
endif
if v:version < 900 || !has('job') || !has('channel') || !has('timers')
  " Vim 9.0: the 'lsp' channel mode and listener_add() are needed.
  finish
endif
let g:loaded_bidi_lsp = 1

" Options (see :help bidi-lsp-options).
let g:bidi_lsp_command = get(g:, 'bidi_lsp_command', 'bidi-lsp')
let g:bidi_lsp_filetypes = get(g:, 'bidi_lsp_filetypes',
      \ ['text', 'markdown', 'gitcommit', 'mail', 'rst', 'asciidoc', 'tex',
      \  'po', 'strings', 'stringsdict', 'xcstrings', 'arb', 'jproperties',
      \  'srt', 'webvtt'])
let g:bidi_lsp_auto_direction = get(g:, 'bidi_lsp_auto_direction', 0)
let g:bidi_lsp_settings = get(g:, 'bidi_lsp_settings', {})
let g:bidi_lsp_loclist = get(g:, 'bidi_lsp_loclist', 1)
let g:bidi_lsp_signs = get(g:, 'bidi_lsp_signs', 1)
let g:bidi_lsp_inlay_hints = get(g:, 'bidi_lsp_inlay_hints', 1)
let g:bidi_lsp_timeout = get(g:, 'bidi_lsp_timeout', 5000)
let g:bidi_lsp_log_file = get(g:, 'bidi_lsp_log_file', '')
let g:bidi_lsp_margin = get(g:, 'bidi_lsp_margin', 50)
let g:bidi_lsp_debounce = get(g:, 'bidi_lsp_debounce', 150)
let g:bidi_lsp_restart = get(g:, 'bidi_lsp_restart', 1)
let g:bidi_lsp_visual_shape = get(g:, 'bidi_lsp_visual_shape', 1)

command! -bar BidiStart call bidi_lsp#attach(bufnr('%'))
command! -bar BidiStop call bidi_lsp#stop()
command! -bar BidiStatus call bidi_lsp#commands#status()
command! -bar -range BidiDirection call bidi_lsp#commands#direction(<line1>, <line2>)
command! -bar -range BidiVisual call bidi_lsp#commands#visual(<line1>, <line2>)
command! -bar -range BidiInfo call bidi_lsp#commands#info(<line1>)
command! -bar -range -nargs=+ -complete=customlist,bidi_lsp#commands#complete_modes
      \ BidiInsertMarks call bidi_lsp#commands#insert_marks(<range>, <line1>, <line2>, <f-args>)
command! -bar -range -bang BidiStrip call bidi_lsp#commands#strip(<range>, <line1>, <line2>, <bang>0)
command! -bar -nargs=? -complete=customlist,bidi_lsp#commands#complete_direction
      \ BidiSetDirection call bidi_lsp#commands#set_direction(<q-args>)
command! -bar -range -bang BidiFix call bidi_lsp#commands#cmd_fix(<range>, <line1>, <line2>, <bang>0)
command! -bar -range BidiFixes call bidi_lsp#commands#cmd_fixes(<range>, <line1>, <line2>)
command! -bar BidiDiagnostics call bidi_lsp#commands#diagnostics()
command! -bar BidiHints call bidi_lsp#hints#toggle(bufnr('%'))

" Visual-mode mappings for the selection (map them to keys you like).
xnoremap <silent> <Plug>(bidi-isolate) :<C-u>call bidi_lsp#commands#visual_insert_marks('isolate')<CR>
xnoremap <silent> <Plug>(bidi-runs) :<C-u>call bidi_lsp#commands#visual_insert_marks('runs')<CR>
xnoremap <silent> <Plug>(bidi-placeholders) :<C-u>call bidi_lsp#commands#visual_insert_marks('placeholders')<CR>
nnoremap <silent> <Plug>(bidi-fix) :<C-u>BidiFix<CR>
nnoremap <silent> <Plug>(bidi-visual) :<C-u>BidiVisual<CR>

augroup bidi_lsp
  autocmd!
  autocmd FileType * call bidi_lsp#on_filetype(str2nr(expand('<abuf>')))
  if exists('##WinScrolled')
    autocmd WinScrolled * call bidi_lsp#view#on_scroll(str2nr(expand('<amatch>')))
  endif
  autocmd VimResized * call bidi_lsp#view#on_scroll(win_getid())
  autocmd OptionSet rightleft call bidi_lsp#hints#orient(bufnr('%'))
  " The commands tell ":'<,'>Bidi..." typed from Visual mode from a range.
  autocmd CmdlineLeave : let g:bidi_lsp_last_cmdline = getcmdline()
  autocmd VimLeavePre * call bidi_lsp#stop()
augroup END
