#!/bin/sh
# ברכה: prints a greeting ⁦ok⁩
name="עולם"
echo "שלום ⁦$name⁩"
echo 'مرحبا‏ بالعالم'
echo "${#name} characters" # تعليق
