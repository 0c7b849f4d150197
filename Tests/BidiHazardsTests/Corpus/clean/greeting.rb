# ברכה
=begin
تعليق ⁧متوازن⁩
=end
name = 'עולם'
puts "שלום ⁦#{name}⁩"
puts 'مرحبا‏'
