" bidi-lsp: a .arb file is JSON.
if exists('b:current_syntax')
  finish
endif
runtime! syntax/json.vim
let b:current_syntax = 'arb'
