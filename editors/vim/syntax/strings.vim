" bidi-lsp: Apple .strings files: "key" = "value"; with /* */ and // comments.
if exists('b:current_syntax')
  finish
endif
syntax region stringsComment start='/\*' end='\*/' contains=@Spell
syntax match stringsComment '//.*$' contains=@Spell
syntax match stringsEscape '\\\%(u\x\{4}\|U\x\{4}\|.\)' contained
syntax match stringsFormat '%\%(\d\+\$\)\=[-+ #0]*\d*\%(\.\d*\)\=\%(hh\|h\|ll\|l\|q\|z\|t\|j\)\=[@dDiuUxXoOfeEgGcCsSpaAF]' contained
syntax region stringsString start='"' skip='\\\\\|\\"' end='"' contains=stringsEscape,stringsFormat,@Spell
syntax match stringsOperator '[=;]'
highlight default link stringsComment Comment
highlight default link stringsString String
highlight default link stringsEscape SpecialChar
highlight default link stringsFormat Special
highlight default link stringsOperator Operator
let b:current_syntax = 'strings'
