#include <string>

// שלום: a raw string over several lines, with balanced isolates.
std::string banner() {
    return R"(שורה ⁦one⁩
سطر ⁧ثاني⁩ "quoted"
)";
}
int million = 1'000'000; // ‏ עברית
