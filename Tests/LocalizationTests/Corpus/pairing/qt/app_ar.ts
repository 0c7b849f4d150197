<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ar" sourcelanguage="en">
<context>
    <name>Main</name>
    <message>
        <source>%1 of %2</source>
        <translation>العدد %2 من أصل %1</translation>
    </message>
    <message>
        <source>Open %1</source>
        <translation>افتح</translation>
    </message>
    <message>
        <source>&lt;b&gt;Warning&lt;/b&gt;: disk full</source>
        <translation>&lt;b&gt;تحذير: القرص ممتلئ</translation>
    </message>
</context>
</TS>
