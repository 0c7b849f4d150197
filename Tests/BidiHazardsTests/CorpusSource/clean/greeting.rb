# ברכה
=begin
تعليق ⟦RLI⟧متوازن⟦PDI⟧
=end
name = 'עולם'
puts "שלום ⟦LRI⟧#{name}⟦PDI⟧"
puts 'مرحبا⟦RLM⟧'
