// Trojan Source: stretched strings in JavaScript.
const accessLevel = "user";
if (accessLevel != "user‮ ⁦// Check if admin⁩ ⁦") {
  console.log("You are an admin.");
}

const banner = `Welcome,
${"guest"} ⁧ see you`;
const pattern = /[a-z]+‭/g;
function isAdmin‎() { return true; }
const ratio = 10 / 2; const quote = "it's ⁦fine⁩";
