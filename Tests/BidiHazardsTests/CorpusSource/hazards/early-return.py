#!/usr/bin/env python3
bank = {"alice": 100}


def subtract_funds(account: str, amount: int):
    """ Subtract funds from bank account then ⟦RLI:inString⟧""" ;return
    bank[account] -= amount
    return


def greet(name):
    '''Multi-line docstring:
    the second line holds ⟦RLO:inString+override⟧ an override
    '''
    label = f"user⟦LRE⟧ {name}⟦PDF⟧"
    return label⟦RLM:inIdentifier⟧


subtract_funds("alice", 50)  # ⟦FSI:inComment⟧ done
