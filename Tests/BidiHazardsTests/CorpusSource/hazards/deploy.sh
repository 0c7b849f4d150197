#!/bin/sh
# Deploy script ⟦RLO:inComment+override⟧ with a reversed comment
user="guest⟦RLI:inString⟧"
echo 'single quoted ⟦LRE⟧ balanced ⟦PDF⟧ text'
if [ "$user" = "admin" ]; then ⟦LRI:unpaired⟧
  echo "multi-line
string ⟦RLO:inString+override⟧ continues
done"
fi
count=${#user} # length ⟦FSI:inComment⟧
echo "$count"
