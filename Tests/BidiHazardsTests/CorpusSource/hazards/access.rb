def admin?(user)
  user == "root"
end

=begin
Block comment ⟦RLO:inComment+override⟧ spans lines
=end
role = 'guest⟦RLI:inString⟧'
puts "hello #{role}" # note ⟦LRO:inComment+override⟧
last = $' ⟦RLO:unpaired+override⟧ x
adm⟦RLM:inIdentifier⟧in = admin?(role)
