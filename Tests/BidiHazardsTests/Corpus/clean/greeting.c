#include <stdio.h>

/* תגובה בעברית: הפונקציה מדפיסה ברכה */
// تعليق بالعربية: هذه الدالة تطبع تحية
int main(void) {
    const char *hebrew = "שלום עולם";
    const char *arabic = "مرحبا بالعالم";
    const char *mixed = "⁧שלום⁩ world";
    const char *marked = "עברית‏ (123)";
    /* ‫שלום‬ and ⁨مرحبا⁩ balanced in a comment */
    printf("%s %s %s %s\n", hebrew, arabic, mixed, marked);
    char apostrophe = '\'';
    return apostrophe == 0;
}
