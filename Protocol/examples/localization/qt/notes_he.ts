<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="he">
<context>
    <name>MainWindow</name>
    <message>
        <source>%1 paid you</source>
        <translation>%1 שילם לך</translation>
    </message>
    <message numerus="yes">
        <source>%n note(s)</source>
        <translation>
            <numerusform>פתק אחד</numerusform>
            <numerusform>%n פתקים</numerusform>
        </translation>
    </message>
</context>
</TS>
