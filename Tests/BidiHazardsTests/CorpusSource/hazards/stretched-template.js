// Trojan Source: stretched strings in JavaScript.
const accessLevel = "user";
if (accessLevel != "user⟦RLO:inString+override⟧ ⟦LRI⟧// Check if admin⟦PDI⟧ ⟦LRI:inString⟧") {
  console.log("You are an admin.");
}

const banner = `Welcome,
${"guest"} ⟦RLI:inString⟧ see you`;
const pattern = /[a-z]+⟦LRO:inString+override⟧/g;
function isAdmin⟦LRM:inIdentifier⟧() { return true; }
const ratio = 10 / 2; const quote = "it's ⟦LRI⟧fine⟦PDI⟧";
