def admin?(user)
  user == "root"
end

=begin
Block comment ‮ spans lines
=end
role = 'guest⁧'
puts "hello #{role}" # note ‭
last = $' ‮ x
adm‏in = admin?(role)
