#!/bin/sh
# ברכה: prints a greeting ⟦LRI⟧ok⟦PDI⟧
name="עולם"
echo "שלום ⟦LRI⟧$name⟦PDI⟧"
echo 'مرحبا⟦RLM⟧ بالعالم'
echo "${#name} characters" # تعليق
