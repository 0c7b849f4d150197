" bidi-lsp: a .stringsdict file is an XML property list.
if exists('b:current_syntax')
  finish
endif
runtime! syntax/xml.vim
let b:current_syntax = 'stringsdict'
