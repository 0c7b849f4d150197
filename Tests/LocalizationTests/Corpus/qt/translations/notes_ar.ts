<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ar_SA" sourcelanguage="en_US">
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../src/mainwindow.ui" line="14"/>
        <source>Notes</source>
        <translation>الملاحظات</translation>
    </message>
    <message>
        <location filename="../src/mainwindow.cpp" line="88"/>
        <source>%1 payments without interest from %2</source>
        <translation>%1 مدفوعات بدون فوائد من %2</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;ملف</translation>
    </message>
    <message>
        <source>Qt %1 is available</source>
        <comment>update banner</comment>
        <translation type="unfinished">Qt %1 متوفر الآن</translation>
    </message>
    <message numerus="yes">
        <location filename="../src/mainwindow.cpp" line="120"/>
        <source>%n note(s) deleted</source>
        <translation>
            <numerusform>لم تُحذف أي ملاحظة</numerusform>
            <numerusform>حُذفت ملاحظة واحدة</numerusform>
            <numerusform>حُذفت ملاحظتان</numerusform>
            <numerusform>حُذفت %n ملاحظات</numerusform>
            <numerusform>حُذفت %n ملاحظة</numerusform>
            <numerusform>حُذفت %Ln ملاحظة</numerusform>
        </translation>
    </message>
    <message>
        <source>Saved to &lt;b&gt;%1&lt;/b&gt;</source>
        <translation>حُفظ في &lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message id="settings.size">
        <source>Size: %L1 MB</source>
        <translation>%L1 م.ب الحجم</translation>
    </message>
    <message>
        <source>Old string</source>
        <translation type="vanished">نص قديم</translation>
    </message>
    <message>
        <source>Escape</source>
        <translation>مفتاح <byte value="x200f"/>Esc</translation>
    </message>
</context>
</TS>
