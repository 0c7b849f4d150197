// Trojan Source: two functions whose names look the same.
function isAdmin(user: string): boolean {
  return user === "root";
}

function isAdmin⟦RLM:inIdentifier⟧(user: string): boolean {
  return true;
}

export const check = (user: string): boolean => isAdmin⟦RLM:inIdentifier⟧(user);
// The call above looks like isAdmin but calls the second function.
const note = 'admin⟦FSI:inString⟧';
