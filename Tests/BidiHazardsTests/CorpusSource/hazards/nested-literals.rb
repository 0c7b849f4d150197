# Literals inside literals, %-literals and here-documents.

def greet(name)
  # A string nested in an interpolation: its RLO stretches that string.
  puts "Hello, #{name.empty? ? "admin⟦RLO:inString+override⟧ resu" : name}!"
  puts "Welcome, ⟦FSI⟧#{name}⟦PDI⟧."
end

# %q literals nest their parentheses: the literal goes on past "(b)".
NOTE = %q(see (b) ⟦RLI:inString⟧ then) ; ⟦PDI:unmatched⟧

# A here-document is a string until its terminator.
HELP = <<~EOS
  usage: deploy ⟦RLO:inString+override⟧--force "now
  EOS

# An RLO that splits "#{": removed, it lets the interpolation start, and
# the mark is then inside an identifier.
LABEL = "total: #⟦RLO:inString+override⟧{count⟦RLM⟧s}"
