<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="he_IL">
<context>
    <name>Editor</name>
    <message>
        <source>Line %1, column %2</source>
        <translation>שורה %1, עמודה %2</translation>
    </message>
    <message>
        <source>Open %1</source>
        <translation>%1 פתח</translation>
    </message>
    <message>
        <source>Broken</source>
        <translation>שבור</translatoin>
    </message>
</context>
</TS>
