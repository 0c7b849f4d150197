#include <string>

// שלום: a raw string over several lines, with balanced isolates.
std::string banner() {
    return R"(שורה ⟦LRI⟧one⟦PDI⟧
سطر ⟦RLI⟧ثاني⟦PDI⟧ "quoted"
)";
}
int million = 1'000'000; // ⟦RLM⟧ עברית
