def admin?(user)
  user == "root"
end

=begin
Block comment ⟦RLO:inComment⟧ spans lines
=end
role = 'guest⟦RLI:inString⟧'
puts "hello #{role}" # note ⟦LRO:inComment⟧
last = $' ⟦RLO:unpaired⟧ x
adm⟦RLM:inIdentifier⟧in = admin?(role)
