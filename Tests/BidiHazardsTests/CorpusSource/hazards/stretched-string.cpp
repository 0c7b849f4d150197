#include <iostream>
#include <string>

// Trojan Source: a stretched string. The closing quote displays inside the
// comment-looking text, so the comparison seems to be against "user".
int main() {
    std::string access_level = "user";
    if (access_level.compare("user⟦RLO:inString+override⟧ ⟦LRI⟧// Check if admin⟦PDI⟧ ⟦LRI:inString⟧")) {
        std::cout << "You are an admin.\n";
    }
    const char *raw = R"sql(SELECT name FROM users
WHERE role = '⟦RLO:inString+override⟧admin')sql";
    int limit = ⟦RLO:unpaired+override⟧ 1'000;
    return limit > 0 && raw != nullptr;
}
